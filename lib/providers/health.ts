/**
 * When this process last heard from its payment provider: the panel shows it so a merchant sees
 * at once that production's provider answers. Kept in memory; each process has its own.
 */
export class ProviderHealth {
  lastSuccessAt: number | null = null;
  lastNotificationAt: number | null = null;
  /** Signed notifications ignored because they did not match the order sent, by field. */
  readonly rejectedNotifications = new Map<string, number>();

  /** Notes a call the provider answered. */
  recordSuccess(at: number): void {
    this.lastSuccessAt = at;
  }

  /** Notes a notification whose signature held. */
  recordNotification(at: number): void {
    this.lastNotificationAt = at;
  }

  /** Counts a signed notification ignored because its `field` differs from the order sent. */
  recordRejectedNotification(field: string): void {
    this.rejectedNotifications.set(field, (this.rejectedNotifications.get(field) ?? 0) + 1);
  }
}
