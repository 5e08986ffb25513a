/** A `payment.created` event row with nothing in it, for tests of the storage layer. */
export function eventRow(publicId: string) {
  return { public_id: publicId, org_id: 1, type: "payment.created", payload: "{}", created_at: 1 };
}
