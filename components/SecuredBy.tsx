import { LockIcon } from "./icons.tsx";

/** The footer line under a payment form. */
export function SecuredBy() {
  return (
    <p class="secured-by">
      <LockIcon class="icon icon--small" /> Payments secured by Paystead
    </p>
  );
}
