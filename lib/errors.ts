/** The error types of the contract, one per HTTP status family. */
type ErrorType =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "conflict"
  | "rate_limit"
  | "api";

/** Every error code the API can answer with, its status and its type. */
const ERROR_CODES = {
  invalid_json: [400, "invalid_request"],
  parameter_missing: [400, "invalid_request"],
  parameter_invalid: [400, "invalid_request"],
  parameter_unknown: [400, "invalid_request"],
  embed_origin_not_allowed: [400, "invalid_request"],
  refund_exceeds_payment: [400, "invalid_request"],
  config_file_invalid: [400, "invalid_request"],
  config_file_other_organisation: [400, "invalid_request"],
  recovery_window_too_large: [400, "invalid_request"],
  statement_invalid: [400, "invalid_request"],
  customer_email_required: [400, "invalid_request"],
  payment_method_unavailable: [400, "invalid_request"],
  unsupported_media_type: [415, "invalid_request"],
  body_too_large: [413, "invalid_request"],
  api_key_missing: [401, "authentication"],
  api_key_invalid: [401, "authentication"],
  api_key_revoked: [401, "authentication"],
  api_key_expired: [401, "authentication"],
  api_key_wrong_environment: [401, "authentication"],
  not_signed_in: [401, "authentication"],
  credentials_invalid: [401, "authentication"],
  signature_invalid: [401, "authentication"],
  plan_required: [403, "permission"],
  role_required: [403, "permission"],
  sandbox_only: [403, "permission"],
  csrf_failed: [403, "permission"],
  resource_not_found: [404, "not_found"],
  route_not_found: [404, "not_found"],
  method_not_allowed: [405, "invalid_request"],
  payment_already_final: [409, "conflict"],
  payment_processing: [409, "conflict"],
  payment_expired: [409, "conflict"],
  offer_inactive: [409, "conflict"],
  session_already_completed: [409, "conflict"],
  session_expired: [409, "conflict"],
  idempotency_key_in_use: [409, "conflict"],
  idempotency_key_reused: [409, "conflict"],
  state_conflict: [409, "conflict"],
  payment_not_succeeded: [409, "conflict"],
  subscription_canceled: [409, "conflict"],
  subscription_past_due: [409, "conflict"],
  subscription_renewal_in_progress: [409, "conflict"],
  webhook_endpoint_limit_reached: [409, "conflict"],
  webhook_endpoint_disabled: [409, "conflict"],
  no_webhook_endpoint_subscribed: [409, "conflict"],
  rate_limited: [429, "rate_limit"],
  code_entry_locked: [429, "rate_limit"],
  too_many_streams: [429, "rate_limit"],
  recovery_rate_limited: [429, "rate_limit"],
  internal_error: [500, "api"],
  service_unavailable: [503, "api"],
  storage_unavailable: [503, "api"],
} as const satisfies Record<string, readonly [number, ErrorType]>;

/** A code from the closed list above. */
type ErrorCode = keyof typeof ERROR_CODES;

/** HTTP status of an error code. */
function codeToStatus(code: ErrorCode): (typeof ERROR_CODES)[ErrorCode][0] {
  return ERROR_CODES[code][0];
}

/** Error type of an error code. */
function codeToType(code: ErrorCode): ErrorType {
  return ERROR_CODES[code][1];
}

/** The one error type the domain throws; the root handler renders it as the contract's body. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.param = options.param;
    this.headers = options.headers;
  }

  get status(): number {
    return codeToStatus(this.code);
  }

  get type(): ErrorType {
    return codeToType(this.code);
  }
}

/** The 404 for an id that does not exist or belongs to another organisation. */
export function notFound(resource: string, id: string, param?: string): ApiError {
  return new ApiError("resource_not_found", `No ${resource} with id '${id}'.`, { param });
}
