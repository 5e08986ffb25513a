import { Card, Notice } from "../../../components/panel/ui.tsx";
import type { OffsiteOverview } from "../../../lib/panel/backups.ts";

/** An owner's view of the encrypted copies kept off the machine, and of a failure to make one. */
export function OffsiteCard(props: { offsite: OffsiteOverview }) {
  const { offsite } = props;
  return (
    <Card title="Off-site backups" id="offsite">
      {offsite.failure && (
        <Notice tone="error" title="Copying backups off-site fails">
          Failing since {offsite.failure.since}; last try at {offsite.failure.at}:{" "}
          {offsite.failure.message}. The local backups are kept and the copy is retried.
        </Notice>
      )}
      {offsite.copies.length === 0
        ? <p>No copy in {offsite.destination} yet.</p>
        : (
          <table class="table">
            <caption class="visually-hidden">Last off-site copies</caption>
            <thead>
              <tr>
                <th scope="col">Database</th>
                <th scope="col">Copied at</th>
                <th scope="col">Size (encrypted)</th>
                <th scope="col">Restore with</th>
              </tr>
            </thead>
            <tbody>
              {offsite.copies.map((copy) => (
                <tr>
                  <td>{copy.database}</td>
                  <td>{copy.at}</td>
                  <td>{copy.size}</td>
                  <td>
                    <code>restore --from {copy.url}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </Card>
  );
}
