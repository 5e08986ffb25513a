import { PaymentsTable } from "../../../components/panel/PaymentsTable.tsx";
import {
  Card,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Id,
  Money,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { OfferRow } from "../../../db/schema.ts";
import { billingText, type OfferList, type OfferView } from "../../../lib/panel/offers.ts";
import type { Form, FormProblem } from "../kit/forms.ts";
import { OfferForm } from "./offer_form.tsx";

function OfferStatus(props: { offer: OfferRow }) {
  return <StatusBadge status={props.offer.active === 1 ? "ACTIVE" : "INACTIVE"} />;
}

function FilterTab(props: { value?: string; active?: string; label: string }) {
  const on = props.active === props.value;
  return (
    <a
      href={props.value === undefined ? "/panel/offers" : `/panel/offers?active=${props.value}`}
      class={`segmented__item ${on ? "segmented__item--on" : ""}`}
      aria-current={on ? "true" : undefined}
    >
      {props.label}
    </a>
  );
}

function OffersTable(props: { offers: OfferRow[] }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="visually-hidden">Offers</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" class="num">Price</th>
            <th scope="col">Billing</th>
            <th scope="col">Status</th>
            <th scope="col">qrId</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {props.offers.map((offer) => (
            <tr>
              <td>
                <a class="row-link" href={`/panel/offers/${offer.public_id}`}>{offer.name}</a>
              </td>
              <td class="num">
                <Money amount={offer.amount} currency={offer.currency} />
              </td>
              <td>{billingText(offer)}</td>
              <td>
                <OfferStatus offer={offer} />
              </td>
              <td>
                <Id>{offer.public_id}</Id>
              </td>
              <td>
                <DateTime at={offer.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The offers, all or only the active or inactive ones, newest first. */
export function OfferListPage(props: OfferList & { manage: boolean }) {
  const { active, manage, nextAfter } = props;
  return (
    <>
      <PageHeader
        title="Offers"
        description="What customers pay for. Each offer has a QR code and a payment link."
        actions={manage && <a class="button button--primary" href="/panel/offers/new">New offer</a>}
      />
      <nav class="segmented" aria-label="Show">
        <FilterTab active={active} label="All" />
        <FilterTab value="true" active={active} label="Active" />
        <FilterTab value="false" active={active} label="Inactive" />
      </nav>
      <Card>
        {props.offers.length === 0
          ? (
            <EmptyState title="No offers here yet">
              {manage && (
                <p>
                  <a href="/panel/offers/new">Create your first offer</a>, or with the API:{" "}
                  <code>POST /api/v1/qr</code>.
                </p>
              )}
            </EmptyState>
          )
          : <OffersTable offers={props.offers} />}
        {nextAfter !== null && (
          <p class="pager">
            <a
              href={`/panel/offers?${new URLSearchParams({
                ...(active && { active }),
                startingAfter: nextAfter,
              })}`}
            >
              Older offers →
            </a>
          </p>
        )}
      </Card>
    </>
  );
}

/** What a form shows after a failed submission: what was typed and what went wrong. */
export interface FormState {
  csrf: string;
  values: Form;
  problem: FormProblem | null;
}

/** The form that creates an offer. */
export function NewOfferPage(props: FormState) {
  return (
    <>
      <PageHeader title="New offer" back={{ href: "/panel/offers", label: "Offers" }} />
      <Card class="card--narrow">
        <OfferForm action="/panel/offers" offer={null} {...props} />
      </Card>
    </>
  );
}

function ShareCard(props: { view: OfferView; base: string }) {
  const { offer, payUrl } = props.view;
  return (
    <Card title="Share" id="share">
      <div class="qr">
        <img
          class="qr__image"
          src={`${props.base}/qr.svg`}
          width={200}
          height={200}
          alt={`QR code that opens the payment page of ${offer.name}`}
        />
        <div class="qr__text">
          <OnceValue id="pay-url" value={payUrl} label="Payment link (what the QR code opens)" />
          <p class="muted">
            Each visit starts a new payment of{" "}
            <Money amount={offer.amount} currency={offer.currency} />; print the code at the till or
            send the link.
          </p>
          <p class="actions">
            <a
              class="button button--secondary button--small"
              href={`${props.base}/qr.svg?download=1`}
              download
            >
              Download SVG
            </a>
            <a
              class="button button--secondary button--small"
              href={`${props.base}/qr.png?download=1`}
              download
            >
              Download PNG
            </a>
          </p>
        </div>
      </div>
    </Card>
  );
}

/** An offer: how to share it, its latest payments, and for those who may, its edit form. */
export function OfferDetailPage(
  props: FormState & { view: OfferView; manage: boolean; notice: string | null },
) {
  const { view, manage, notice, ...form } = props;
  const { offer } = view;
  const base = `/panel/offers/${offer.public_id}`;
  return (
    <>
      <PageHeader
        title={offer.name}
        back={{ href: "/panel/offers", label: "Offers" }}
        description={
          <>
            <Money amount={offer.amount} currency={offer.currency} /> · {billingText(offer)} ·{" "}
            <OfferStatus offer={offer} />
          </>
        }
      />
      {notice && <Notice tone="success">{notice}</Notice>}
      <div class="grid grid--sidebar">
        <div class="stack">
          <ShareCard view={view} base={base} />
          <Card
            title="Latest payments"
            id="payments"
            actions={
              <a href={`/panel/payments?qrId=${offer.public_id}`}>All payments for this offer →</a>
            }
          >
            {view.payments.length === 0 ? <EmptyState title="No payments yet" /> : (
              <PaymentsTable
                payments={view.payments}
                offerNames={view.offerNames}
                caption="Latest payments for this offer"
              />
            )}
          </Card>
        </div>
        <div class="stack">
          {manage && (
            <Card title="Edit" id="edit">
              <OfferForm action={base} offer={offer} {...form} />
            </Card>
          )}
          <Card title="Details" id="details">
            <Facts>
              <Fact label="qrId">
                <Id>{offer.public_id}</Id>
              </Fact>
              <Fact label="Created">
                <DateTime at={offer.created_at} />
              </Fact>
            </Facts>
          </Card>
        </div>
      </div>
    </>
  );
}
