import { moneyText, useT } from "../../../components/panel/i18n.ts";
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
  TableWrap,
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
  const tr = useT();
  const { t } = tr;
  return (
    <TableWrap label={t("panel.offers.title")}>
      <table class="table">
        <caption class="visually-hidden">{t("panel.offers.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("panel.offers.col.name")}</th>
            <th scope="col" class="num">{t("panel.offers.col.price")}</th>
            <th scope="col">{t("panel.offers.col.billing")}</th>
            <th scope="col">{t("panel.offers.col.status")}</th>
            <th scope="col">qrId</th>
            <th scope="col">{t("panel.offers.col.created")}</th>
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
              <td>{billingText(tr, offer)}</td>
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
    </TableWrap>
  );
}

/** The offers, all or only the active or inactive ones, newest first. */
export function OfferListPage(props: OfferList & { manage: boolean }) {
  const { active, manage, nextAfter } = props;
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t("panel.offers.title")}
        description={t("panel.offers.description")}
        actions={manage && (
          <a class="button button--primary" href="/panel/offers/new">{t("panel.offers.new")}</a>
        )}
      />
      <nav class="segmented" aria-label={t("panel.offers.show")}>
        <FilterTab active={active} label={t("panel.offers.all")} />
        <FilterTab value="true" active={active} label={t("panel.offers.active")} />
        <FilterTab value="false" active={active} label={t("panel.offers.inactive")} />
      </nav>
      <Card>
        {props.offers.length === 0
          ? (
            <EmptyState title={t("panel.offers.none")}>
              {manage && (
                <p>
                  <a href="/panel/offers/new">{t("panel.offers.createFirst")}</a>
                  {t("panel.offers.orApi", { call: "POST /api/v1/qr" })}
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
              {t("panel.offers.older")}
            </a>
          </p>
        )}
      </Card>
    </>
  );
}

/** What a form shows after a failed submission: what was typed and what went wrong. */
interface FormState {
  csrf: string;
  values: Form;
  problem: FormProblem | null;
}

/** The form that creates an offer. */
export function NewOfferPage(props: FormState) {
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t("panel.offers.newTitle")}
        back={{ href: "/panel/offers", label: t("panel.offers.title") }}
      />
      <Card class="card--narrow">
        <OfferForm action="/panel/offers" offer={null} {...props} />
      </Card>
    </>
  );
}

function ShareCard(props: { view: OfferView; base: string }) {
  const { offer, payUrl } = props.view;
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.offers.share")} id="share">
      <div class="qr">
        <img
          class="qr__image"
          src={`${props.base}/qr.svg`}
          width={200}
          height={200}
          alt={t("panel.offers.qrAlt", { name: offer.name })}
        />
        <div class="qr__text">
          <OnceValue id="pay-url" value={payUrl} label={t("panel.offers.payLink")} />
          <p class="muted">
            {t("panel.offers.shareText", {
              amount: moneyText(tr, offer.amount, offer.currency),
            })}
          </p>
          <p class="actions">
            <a
              class="button button--secondary button--small"
              href={`${props.base}/qr.svg?download=1`}
              download
            >
              {t("panel.offers.downloadSvg")}
            </a>
            <a
              class="button button--secondary button--small"
              href={`${props.base}/qr.png?download=1`}
              download
            >
              {t("panel.offers.downloadPng")}
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
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={offer.name}
        back={{ href: "/panel/offers", label: t("panel.offers.title") }}
        description={
          <>
            <Money amount={offer.amount} currency={offer.currency} /> · {billingText(tr, offer)} ·
            {" "}
            <OfferStatus offer={offer} />
          </>
        }
      />
      {notice && <Notice tone="success">{notice}</Notice>}
      <div class="grid grid--sidebar">
        <div class="stack">
          <ShareCard view={view} base={base} />
          <Card
            title={t("panel.offers.latest")}
            id="payments"
            actions={
              <a href={`/panel/payments?qrId=${offer.public_id}`}>
                {t("panel.offers.allPayments")}
              </a>
            }
          >
            {view.payments.length === 0
              ? <EmptyState title={t("panel.offers.noPayments")} />
              : (
                <PaymentsTable
                  payments={view.payments}
                  offerNames={view.offerNames}
                  caption={t("panel.offers.latestCaption")}
                />
              )}
          </Card>
        </div>
        <div class="stack">
          {manage && (
            <Card title={t("panel.offers.edit")} id="edit">
              <OfferForm action={base} offer={offer} {...form} />
            </Card>
          )}
          <Card title={t("panel.offers.details")} id="details">
            <Facts>
              <Fact label="qrId">
                <Id>{offer.public_id}</Id>
              </Fact>
              <Fact label={t("panel.offers.col.created")}>
                <DateTime at={offer.created_at} />
              </Fact>
            </Facts>
          </Card>
        </div>
      </div>
    </>
  );
}
