import type { Generated, Insertable, Selectable } from "kysely";

// Timestamps are INTEGER milliseconds since the Unix epoch (UTC); booleans are 0/1.

/** The bookkeeping table of applied migrations, in every database. */
export interface SchemaMigrationsTable {
  name: string;
  applied_at: number;
}

export interface OrganisationsTable {
  id: Generated<number>;
  public_id: string;
  slug: string;
  name: string;
  plan: string;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  name: string | null;
  password_hash: string;
  password_change_required: number;
  created_at: number;
  updated_at: number;
}

export interface MembershipsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

/** The accounts database, shared by both environments. */
export interface AccountsSchema {
  schema_migrations: SchemaMigrationsTable;
  organisations: OrganisationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
}

export interface ApiKeysTable {
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
  processing_at: number | null;
  succeeded_at: number | null;
  failed_at: number | null;
  canceled_at: number | null;
  expired_at: number | null;
}

export interface EventsTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  type: string;
  payload: string;
  created_at: number;
}

export interface IdempotencyKeysTable {
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

export interface WebhookDeliveriesTable {
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
}

export interface WebhookAttemptsTable {
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
export interface WebhookFanoutCursorTable {
  id: number;
  last_event_id: number;
}

/** One environment's database (`sandbox.db` or `production.db`). */
export interface EnvironmentSchema {
  schema_migrations: SchemaMigrationsTable;
  api_keys: ApiKeysTable;
  offers: OffersTable;
  payments: PaymentsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_endpoint_records: WebhookEndpointRecordsTable;
  webhook_fanout_cursor: WebhookFanoutCursorTable;
}

export type OrganisationRow = Selectable<OrganisationsTable>;
export type UserRow = Selectable<UsersTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type OfferRow = Selectable<OffersTable>;
export type NewOffer = Insertable<OffersTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type NewPayment = Insertable<PaymentsTable>;
export type EventRow = Selectable<EventsTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type NewWebhookEndpoint = Insertable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type NewWebhookAttempt = Insertable<WebhookAttemptsTable>;
export type WebhookEndpointRecordRow = Selectable<WebhookEndpointRecordsTable>;
