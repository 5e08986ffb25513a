/**
 * When this process last heard from its payment provider: the panel shows it so a merchant sees
 * at once that production's provider answers. Kept in memory; each process has its own.
 */
export class ProviderHealth {
  lastSuccessAt: number | null = null;
  lastNotificationAt: number | null = null;

  /** Notes a call the provider answered. */
  recordSuccess(at: number): void {
    this.lastSuccessAt = at;
  }

  /** Notes a notification whose signature held. */
  recordNotification(at: number): void {
    this.lastNotificationAt = at;
  }
}
