import type { Generated, Insertable, Selectable } from "kysely";

// Timestamps are INTEGER milliseconds since the Unix epoch (UTC); booleans are 0/1.

/** The bookkeeping table of applied migrations, in every database. */
interface SchemaMigrationsTable {
  name: string;
  applied_at: number;
}

interface OrganisationsTable {
  id: Generated<number>;
  public_id: string;
  slug: string;
  name: string;
  plan: string;
  created_at: number;
  updated_at: number;
}

interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  name: string | null;
  password_hash: string;
  password_change_required: number;
  created_at: number;
  updated_at: number;
  /** The panel's language the user chose, `pl` or `en`; null follows the browser (0004). */
  language: Generated<string | null>;
}

interface MembershipsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

/** A signed-in panel session; only a hash of its token is kept. Times are system time. */
interface PanelSessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  /** The organisation the session works in (a user may belong to several). */
  org_id: number;
  created_at: number;
  last_seen_at: number;
  /** The absolute end of the session, however active it is. */
  expires_at: number;
  client_address: string | null;
  user_agent: string | null;
}

/** Failed sign-ins of one subject (`account:<e-mail>` or `address:<client address>`). */
interface SignInThrottleTable {
  subject: string;
  failures: number;
  window_started_at: number;
  locked_until: number | null;
  updated_at: number;
}

/** An invitation to join an organisation, redeemed once through a link. */
interface InvitationsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  email: string;
  role: string;
  token_hash: string;
  invited_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

/** Who a customer pays: one row per organisation (accounts migration 0003). */
interface BusinessDetailsTable {
  org_id: number;
  legal_name: string;
  address_line1: string;
  address_line2: string | null;
  postal_code: string;
  city: string;
  country: string;
  tax_id: string | null;
  contact_email: string;
  contact_phone: string | null;
  default_language: string;
  invoice_requests: number;
  updated_at: number;
}

/** The accounts database, shared by both environments. */
export interface AccountsSchema {
  schema_migrations: SchemaMigrationsTable;
  organisations: OrganisationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  panel_sessions: PanelSessionsTable;
  sign_in_throttle: SignInThrottleTable;
  invitations: InvitationsTable;
  business_details: BusinessDetailsTable;
}

interface ApiKeysTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  name: string;
  secret_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface OffersTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  name: string;
  description: string | null;
  amount: number;
  currency: string;
  recurring_interval: string | null;
  recurring_interval_count: number | null;
  active: number;
  metadata: string;
  created_at: number;
  updated_at: number;
  /** JSON array of the methods its payments may be paid with; null: every one (migration 0015). */
  payment_methods: string | null;
}

export interface PaymentsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  offer_id: number;
  status: string;
  amount: number;
  currency: string;
  quantity: number;
  amount_refunded: number;
  customer_email: string | null;
  customer_name: string | null;
  success_url: string | null;
  cancel_url: string | null;
  failure_code: string | null;
  metadata: string;
  expires_at: number;
  processing_deadline_at: number | null;
  created_at: number;
  updated_at: number;
  /** Grows by one with every change of the row (migration 0007); events carry it. */
  version: Generated<number>;
  processing_at: number | null;
  succeeded_at: number | null;
  failed_at: number | null;
  canceled_at: number | null;
  expired_at: number | null;
  /** The language asked for, `pl` or `en`; null for `auto` (migration 0009). */
  locale: string | null;
  /** The invoice the customer asked for, or null for none (migration 0009). */
  invoice_company_name: string | null;
  /** The NIP of `invoice_company_name`, 10 digits. */
  invoice_tax_id: string | null;
  /** The attempt that decided the payment, its method, bank and provider (migration 0015). */
  attempt_id: number | null;
  payment_method: string | null;
  bank: string | null;
  provider: string | null;
  /** JSON array of the methods it may be paid with; null: every one offered. */
  payment_methods: string | null;
  /** The language its page was shown in when the customer paid, `pl` or `en`. */
  customer_language: string | null;
}

/** An e-mail to a customer, from the outbox to the server's answer (migration 0010). */
export interface CustomerEmailsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  payment_id: number;
  refund_id: number | null;
  kind: string;
  recipient: string;
  message_id: string;
  status: string;
  transport: string | null;
  attempt_count: number;
  next_attempt_at: number | null;
  in_flight: number;
  last_error: string | null;
  language: string | null;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  resend_of: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

interface EventsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  type: string;
  payload: string;
  created_at: number;
}

interface IdempotencyKeysTable {
  id: Generated<number>;
  org_id: number;
  key: string;
  fingerprint: string;
  status: string;
  locked_until: number;
  response_status: number | null;
  response_content_type: string | null;
  response_body: string | null;
  created_at: number;
}

/** A refund of (part of) a payment; `locked_until` is system time (the processing lease). */
export interface RefundsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  payment_id: number;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  failure_code: string | null;
  locked_until: number;
  created_at: number;
  updated_at: number;
  /** Grows by one with every change of the row (migration 0007); events carry it. */
  version: Generated<number>;
  succeeded_at: number | null;
  failed_at: number | null;
  /** The provider's id of the refund, once it answered. */
  provider_ref: string | null;
  /** The attempt whose money it gives back; null: the one that decided the payment (0015). */
  attempt_id: number | null;
}

/** One code sent to the payment provider for a payment (see migration 0006). */
export interface PaymentAttemptsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  payment_id: number;
  provider: string;
  provider_ref: string | null;
  status: string;
  failure_code: string | null;
  deadline_at: number | null;
  check_at: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** How the customer pays (migration 0015): `blik`, or a redirect method. */
  method: Generated<string>;
  /** The bank of a `transfer`. */
  bank: string | null;
  /** Where the provider sends the customer to pay, for a redirect method once it answered. */
  redirect_url: string | null;
  /** Why the attempt went to its provider. */
  provider_reason: string | null;
  /** A CANCELED attempt the provider has not confirmed given up is asked about until then. */
  watch_until: number | null;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  offer_id: number;
  first_payment_id: number;
  latest_payment_id: number;
  status: string;
  amount: number;
  currency: string;
  quantity: number;
  recurring_interval: string;
  recurring_interval_count: number;
  customer_email: string | null;
  customer_name: string | null;
  metadata: string;
  anchor_at: number;
  period_index: number;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: number;
  next_charge_at: number | null;
  cancellation_reason: string | null;
  created_at: number;
  updated_at: number;
  /** Grows by one with every change of the row (migration 0007); events carry it. */
  version: Generated<number>;
  past_due_at: number | null;
  canceled_at: number | null;
}

/** One charge attempt for a subscription period; `locked_until` is system time (the lease). */
export interface SubscriptionRenewalsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  subscription_id: number;
  payment_id: number;
  period_index: number;
  attempt: number;
  status: string;
  locked_until: number;
  created_at: number;
  succeeded_at: number | null;
  failed_at: number | null;
  /** CHARGE: the provider charges a stored method; LINK: the customer pays a hosted link. */
  method: Generated<string>;
}

/** How far an organisation moved its sandbox clock ahead of the system clock. */
interface SandboxClocksTable {
  org_id: number;
  offset_ms: number;
  updated_at: number;
}

export interface CheckoutSessionsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  offer_id: number;
  status: string;
  amount: number;
  currency: string;
  embed_link: string;
  embed_origin: string;
  success_url: string | null;
  cancel_url: string | null;
  /** JSON array of `{name, quantity, unitAmount}`, or null when the offer's amount applies. */
  line_items: string | null;
  metadata: string;
  payment_id: number | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  /** Grows by one with every change of the row (migration 0007); events carry it. */
  version: Generated<number>;
  completed_at: number | null;
  expired_at: number | null;
  /** The language asked for, `pl` or `en`; null for `auto` (migration 0009). */
  locale: Generated<string | null>;
  /** JSON array of the methods it may be paid with; null: the offer's (migration 0015). */
  payment_methods: string | null;
}

interface CheckoutSettingsTable {
  org_id: number;
  /** JSON array of origins (`https://shop.example`). */
  allowed_origins: string;
  updated_at: number;
}

interface CheckoutCodeGuardsTable {
  subject: string;
  wrong_codes: number;
  locked_until: number | null;
  updated_at: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  url: string;
  description: string | null;
  /** JSON array of subscriptions such as `["payment.*", "refund.succeeded"]`. */
  event_types: string;
  enabled: number;
  disabled_reason: string | null;
  disabled_at: number | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  /** The endpoint receives events with a larger id: those recorded after it was (re)enabled. */
  events_after_id: number;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

interface WebhookDeliveriesTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  event_id: number;
  endpoint_id: number;
  triggered_by: string;
  status: string;
  attempt_count: number;
  /** 1 while an attempt is leased; `next_attempt_at` is then the lease's end. */
  in_flight: number;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** The recovery that queued this delivery (migration 0007); null otherwise. */
  recovery_id: Generated<number | null>;
}

interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  number: number;
  url: string;
  started_at: number;
  duration_ms: number | null;
  succeeded: number;
  response_status: number | null;
  response_body: string | null;
  error_code: string | null;
  error_message: string | null;
}

export interface WebhookEndpointRecordsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  endpoint_id: number;
  type: string;
  reason: string;
  message: string;
  created_at: number;
}

/** One row: the id of the last event fanned out into deliveries. */
interface WebhookFanoutCursorTable {
  id: number;
  last_event_id: number;
}

/** The sandbox's built-in webhook receiver of one organisation (the Quick Start's). */
/** A window of events queued again for one endpoint; one row per (endpoint, since, until). */
interface WebhookRecoveriesTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  endpoint_id: number;
  since: number;
  until: number;
  /** How many deliveries the recovery queued. */
  queued: number;
  created_at: number;
  /** 1 when events already delivered were queued again too (migration 0012). */
  include_delivered: Generated<number>;
  /** The real time the recovery was asked for (migration 0012); null before it. */
  requested_at: number | null;
}

interface SandboxInboxesTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  created_at: number;
}

/** One request the sandbox inbox received, with whether its signature verified. */
interface SandboxInboxRequestsTable {
  id: Generated<number>;
  inbox_id: number;
  received_at: number;
  webhook_id: string | null;
  event_type: string | null;
  verified: number;
  /** Which secret verified it, or why it did not verify. */
  verification: string;
  /** JSON object of the webhook-* and content-type headers. */
  headers: string;
  body: string;
}

/** One environment's database (`sandbox.db` or `production.db`). */
/** An object a configuration import made, by its id in the environment it came from. */
export interface ConfigImportMappingsTable {
  id: Generated<number>;
  org_id: number;
  kind: "OFFER" | "WEBHOOK_ENDPOINT";
  source_id: string;
  target_id: string;
  created_at: number;
}

/** A provider's statement matched against the payments and refunds (migration 0011). */
interface ReconciliationsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  /** The statement's first and last day, `YYYY-MM-DD` in the organisation's time zone. */
  period_from: string;
  period_to: string;
  /** How many operations (lines after the header) the statement had. */
  operations: number;
  matched: number;
  /** JSON arrays of `{amount, currency}` totals, one per currency. */
  fees: string;
  payouts: string;
  /** JSON array of the first problems found, at most 100 (see lib/reconciliations/schemas.ts). */
  problems: string;
  /** JSON object of how many problems of each kind were found (migration 0014). */
  problem_counts: string;
  /** 1 when more problems were found than `problems` keeps. */
  problems_truncated: number;
  created_at: number;
}

export interface EnvironmentSchema {
  schema_migrations: SchemaMigrationsTable;
  api_keys: ApiKeysTable;
  offers: OffersTable;
  payments: PaymentsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  refunds: RefundsTable;
  subscriptions: SubscriptionsTable;
  subscription_renewals: SubscriptionRenewalsTable;
  sandbox_clocks: SandboxClocksTable;
  checkout_sessions: CheckoutSessionsTable;
  checkout_settings: CheckoutSettingsTable;
  checkout_code_guards: CheckoutCodeGuardsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_endpoint_records: WebhookEndpointRecordsTable;
  webhook_fanout_cursor: WebhookFanoutCursorTable;
  webhook_recoveries: WebhookRecoveriesTable;
  sandbox_inboxes: SandboxInboxesTable;
  sandbox_inbox_requests: SandboxInboxRequestsTable;
  payment_attempts: PaymentAttemptsTable;
  config_import_mappings: ConfigImportMappingsTable;
  customer_emails: CustomerEmailsTable;
  reconciliations: ReconciliationsTable;
}

export type OrganisationRow = Selectable<OrganisationsTable>;
export type UserRow = Selectable<UsersTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type PanelSessionRow = Selectable<PanelSessionsTable>;
export type SignInThrottleRow = Selectable<SignInThrottleTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type BusinessDetailsRow = Selectable<BusinessDetailsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type OfferRow = Selectable<OffersTable>;
export type NewOffer = Insertable<OffersTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type EventRow = Selectable<EventsTable>;
export type CustomerEmailRow = Selectable<CustomerEmailsTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type RefundRow = Selectable<RefundsTable>;
export type PaymentAttemptRow = Selectable<PaymentAttemptsTable>;
export type NewRefund = Insertable<RefundsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SubscriptionRenewalRow = Selectable<SubscriptionRenewalsTable>;
export type NewSubscriptionRenewal = Insertable<SubscriptionRenewalsTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;
export type NewCheckoutSession = Insertable<CheckoutSessionsTable>;
export type CheckoutCodeGuardRow = Selectable<CheckoutCodeGuardsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type NewWebhookEndpoint = Insertable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
export type WebhookRecoveryRow = Selectable<WebhookRecoveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type NewWebhookAttempt = Insertable<WebhookAttemptsTable>;
export type WebhookEndpointRecordRow = Selectable<WebhookEndpointRecordsTable>;
export type ReconciliationRow = Selectable<ReconciliationsTable>;
export type NewReconciliation = Insertable<ReconciliationsTable>;
export type SandboxInboxRow = Selectable<SandboxInboxesTable>;
export type SandboxInboxRequestRow = Selectable<SandboxInboxRequestsTable>;
