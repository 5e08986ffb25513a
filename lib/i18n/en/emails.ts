/** Words of the e-mails a customer is sent (confirmations, refund notices, renewal links). */
export const emails = {} as const;
