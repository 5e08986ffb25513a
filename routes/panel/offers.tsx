import { Hono } from "hono";
import { PaymentsTable } from "../../components/panel/PaymentsTable.tsx";
import {
  Card,
  CsrfField,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Field,
  FormError,
  Id,
  Money,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import type { OfferRow } from "../../db/schema.ts";
import type { Services } from "../../lib/context.ts";
import { offerQrPng, offerQrSvg } from "../../lib/offer_codes.ts";
import {
  createOffer,
  CreateOfferRequest,
  getOffer,
  listOffers,
  offerPayUrl,
  RECURRING_INTERVALS,
  updateOffer,
  UpdateOfferRequest,
} from "../../lib/offers.ts";
import { can } from "../../lib/accounts/access.ts";
import {
  metadataText,
  parseAmountField,
  parseMetadataText,
  parseRequest,
} from "../../lib/panel/forms.ts";
import { offerNamesOf } from "../../lib/panel/insights.ts";
import { listPayments } from "../../lib/payments/mod.ts";
import { allow } from "./kit/access.ts";
import { orgCtx, type PanelContext, type PanelEnv, subjectOf } from "./kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";

const COMMON_CURRENCIES = ["PLN", "EUR", "USD", "GBP", "CHF", "CZK", "SEK", "NOK", "DKK"];
const ALL_CURRENCIES = Intl.supportedValuesOf("currency").map((code) => code.toUpperCase())
  .filter((code) => !COMMON_CURRENCIES.includes(code));

const INTERVAL_TEXT: Record<string, [string, string]> = {
  DAY: ["day", "days"],
  WEEK: ["week", "weeks"],
  MONTH: ["month", "months"],
  YEAR: ["year", "years"],
};

/** "every month", "every 3 months", or "one-time". */
function billingText(offer: OfferRow): string {
  if (offer.recurring_interval === null) return "One-time";
  const count = offer.recurring_interval_count ?? 1;
  const [one, many] = INTERVAL_TEXT[offer.recurring_interval];
  return count === 1 ? `Every ${one}` : `Every ${count} ${many}`;
}

const NOTICES = {
  created: "Offer created. Share its QR code or payment link.",
  saved: "Changes saved.",
} as const;

function OfferForm(props: {
  csrf: string;
  action: string;
  offer: OfferRow | null;
  values: Form;
  problem: FormProblem | null;
}) {
  const { offer, values, problem } = props;
  const value = (name: string, fallback = "") =>
    typeof values[name] === "string" ? values[name] as string : fallback;
  const fieldsShown = [
    "name",
    "amount",
    "currency",
    "description",
    "recurring",
    "metadata",
    "active",
  ];
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <FormError message={problemOfForm(problem, fieldsShown)} />
      <Field
        name="name"
        label="Name"
        hint="What the customer sees on the payment page."
        error={problemFor(problem, "name")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="text"
            required
            maxLength={200}
            value={value("name", offer?.name)}
          />
        )}
      </Field>
      {offer === null
        ? (
          <div class="form__row">
            <Field name="amount" label="Price" error={problemFor(problem, "amount")}>
              {(attrs) => (
                <input
                  {...attrs}
                  type="text"
                  inputMode="decimal"
                  required
                  placeholder="12.50"
                  value={value("amount")}
                  class="input--short"
                />
              )}
            </Field>
            <Field name="currency" label="Currency" error={problemFor(problem, "currency")}>
              {(attrs) => (
                <select {...attrs}>
                  <optgroup label="Common">
                    {COMMON_CURRENCIES.map((code) => (
                      <option value={code} selected={value("currency", "PLN") === code}>
                        {code}
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label="All">
                    {ALL_CURRENCIES.map((code) => (
                      <option value={code} selected={value("currency") === code}>{code}</option>
                    ))}
                  </optgroup>
                </select>
              )}
            </Field>
          </div>
        )
        : (
          <Facts>
            <Fact label="Price">
              <Money amount={offer.amount} currency={offer.currency} />
            </Fact>
            <Fact label="Billing">{billingText(offer)}</Fact>
          </Facts>
        )}
      {offer === null && (
        <fieldset class="fieldset">
          <legend>Billing</legend>
          <div class="form__row">
            <Field name="recurring" label="Charge" error={problemFor(problem, "recurring")}>
              {(attrs) => (
                <select {...attrs}>
                  <option value="" selected={value("recurring") === ""}>Once</option>
                  {RECURRING_INTERVALS.map((interval) => (
                    <option value={interval} selected={value("recurring") === interval}>
                      Every {INTERVAL_TEXT[interval][0]} (subscription)
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              name="intervalCount"
              label="Every how many"
              hint="For a subscription: 3 with month charges every 3 months."
              error={problemFor(problem, "recurring.intervalCount")}
            >
              {(attrs) => (
                <input
                  {...attrs}
                  type="number"
                  min={1}
                  max={365}
                  value={value("intervalCount", "1")}
                  class="input--short"
                />
              )}
            </Field>
          </div>
          <p class="field__hint">
            Prices and billing can't change once customers pay; create a new offer for a new price.
          </p>
        </fieldset>
      )}
      <Field
        name="description"
        label="Description (optional)"
        error={problemFor(problem, "description")}
      >
        {(attrs) => (
          <textarea {...attrs} rows={3} maxLength={2000}>
            {value("description", offer?.description ?? "")}
          </textarea>
        )}
      </Field>
      <Field
        name="metadata"
        label="Metadata (optional)"
        hint="One key=value per line, for your own systems; up to 50 keys. Not shown to customers."
        error={problemFor(problem, "metadata")}
      >
        {(attrs) => (
          <textarea {...attrs} rows={3} class="mono" placeholder="sku=COFFEE-1KG">
            {value("metadata", offer ? metadataText(JSON.parse(offer.metadata)) : "")}
          </textarea>
        )}
      </Field>
      {offer !== null && (
        <label class="check">
          <input
            type="checkbox"
            name="active"
            value="true"
            checked={typeof values.active === "string"
              ? values.active === "true"
              : offer.active === 1}
          />
          <span>
            Active
            <span class="check__hint">
              An inactive offer takes no new payments; its QR code says it is no longer available.
            </span>
          </span>
        </label>
      )}
      <div class="form__actions">
        <button type="submit" class="button button--primary">
          {offer === null ? "Create offer" : "Save changes"}
        </button>
        {offer === null && <a class="button button--secondary" href="/panel/offers">Cancel</a>}
      </div>
    </form>
  );
}

function createRequest(form: Form) {
  const currency = field(form, "currency").toUpperCase();
  const recurring = field(form, "recurring");
  const description = field(form, "description").trim();
  const metadataRaw = field(form, "metadata");
  const count = field(form, "intervalCount");
  return parseRequest(CreateOfferRequest, {
    name: field(form, "name"),
    amount: parseAmountField(field(form, "amount"), currency || "PLN", "amount"),
    currency,
    ...(description !== "" && { description }),
    ...(recurring !== "" && {
      recurring: { interval: recurring, intervalCount: count === "" ? 1 : Number(count) },
    }),
    ...(metadataRaw.trim() !== "" && { metadata: parseMetadataText(metadataRaw) }),
  });
}

function updateRequest(form: Form) {
  const description = field(form, "description").trim();
  return parseRequest(UpdateOfferRequest, {
    name: field(form, "name"),
    description: description === "" ? null : description,
    active: field(form, "active") === "true",
    metadata: parseMetadataText(field(form, "metadata")),
  });
}

/** Offers: the list, creating, editing and deactivating, and each offer's QR code. */
export function createOfferPages(services: Services): Hono<PanelEnv> {
  const publicUrl = services.config.publicUrl;

  const newPage = (c: PanelContext, values: Form, problem: FormProblem | null, status = 200) =>
    renderPanel(services, c, {
      title: "New offer",
      current: "offers",
      status,
      body: (
        <>
          <PageHeader title="New offer" back={{ href: "/panel/offers", label: "Offers" }} />
          <Card class="card--narrow">
            <OfferForm
              csrf={c.get("session").csrfToken}
              action="/panel/offers"
              offer={null}
              values={values}
              problem={problem}
            />
          </Card>
        </>
      ),
    });

  const offerPage = async (
    c: PanelContext,
    offer: OfferRow,
    values: Form,
    problem: FormProblem | null,
    status = 200,
  ) => {
    const ctx = orgCtx(c);
    const session = c.get("session");
    const manage = can("offers.manage", subjectOf(session), services.config.quickstartAccess);
    const payments = await listPayments(ctx, { limit: 5, qrId: offer.public_id });
    const names = await offerNamesOf(ctx, payments.data);
    const notice = noticeOf(c, NOTICES);
    const payUrl = offerPayUrl(publicUrl, offer.public_id);
    const base = `/panel/offers/${offer.public_id}`;
    return renderPanel(services, c, {
      title: offer.name,
      current: "offers",
      status,
      body: (
        <>
          <PageHeader
            title={offer.name}
            back={{ href: "/panel/offers", label: "Offers" }}
            description={
              <>
                <Money amount={offer.amount} currency={offer.currency} /> · {billingText(offer)} ·
                {" "}
                <StatusBadge status={offer.active === 1 ? "ACTIVE" : "INACTIVE"} />
              </>
            }
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          <div class="grid grid--sidebar">
            <div class="stack">
              <Card title="Share" id="share">
                <div class="qr">
                  <img
                    class="qr__image"
                    src={`${base}/qr.svg`}
                    width={200}
                    height={200}
                    alt={`QR code that opens the payment page of ${offer.name}`}
                  />
                  <div class="qr__text">
                    <OnceValue
                      id="pay-url"
                      value={payUrl}
                      label="Payment link (what the QR code opens)"
                    />
                    <p class="muted">
                      Each visit starts a new payment of{" "}
                      <Money amount={offer.amount} currency={offer.currency} />; print the code at
                      the till or send the link.
                    </p>
                    <p class="actions">
                      <a
                        class="button button--secondary button--small"
                        href={`${base}/qr.svg?download=1`}
                        download
                      >
                        Download SVG
                      </a>
                      <a
                        class="button button--secondary button--small"
                        href={`${base}/qr.png?download=1`}
                        download
                      >
                        Download PNG
                      </a>
                    </p>
                  </div>
                </div>
              </Card>
              <Card
                title="Latest payments"
                id="payments"
                actions={
                  <a href={`/panel/payments?qrId=${offer.public_id}`}>
                    All payments for this offer →
                  </a>
                }
              >
                {payments.data.length === 0
                  ? <EmptyState title="No payments yet" />
                  : (
                    <PaymentsTable
                      payments={payments.data}
                      offerNames={names}
                      caption="Latest payments for this offer"
                    />
                  )}
              </Card>
            </div>
            <div class="stack">
              {manage
                ? (
                  <Card title="Edit" id="edit">
                    <OfferForm
                      csrf={session.csrfToken}
                      action={base}
                      offer={offer}
                      values={values}
                      problem={problem}
                    />
                  </Card>
                )
                : null}
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
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get("/panel/offers", allow(services, "offers.view"), async (c) => {
      const ctx = orgCtx(c);
      const filter = c.req.query("active");
      const active = filter === "true" || filter === "false" ? filter : undefined;
      const page = await listOffers(ctx, {
        limit: 25,
        active,
        startingAfter: c.req.query("startingAfter"),
      });
      const manage = can(
        "offers.manage",
        subjectOf(c.get("session")),
        services.config.quickstartAccess,
      );
      const tab = (value: string | undefined, label: string) => (
        <a
          href={value === undefined ? "/panel/offers" : `/panel/offers?active=${value}`}
          class={`segmented__item ${active === value ? "segmented__item--on" : ""}`}
          aria-current={active === value ? "true" : undefined}
        >
          {label}
        </a>
      );
      return renderPanel(services, c, {
        title: "Offers",
        current: "offers",
        body: (
          <>
            <PageHeader
              title="Offers"
              description="What customers pay for. Each offer has a QR code and a payment link."
              actions={manage && (
                <a class="button button--primary" href="/panel/offers/new">New offer</a>
              )}
            />
            <nav class="segmented" aria-label="Show">
              {tab(undefined, "All")}
              {tab("true", "Active")}
              {tab("false", "Inactive")}
            </nav>
            <Card>
              {page.data.length === 0
                ? (
                  <EmptyState title="No offers here yet">
                    {manage && (
                      <p>
                        <a href="/panel/offers/new">Create your first offer</a>, or with the API:
                        {" "}
                        <code>POST /api/v1/qr</code>.
                      </p>
                    )}
                  </EmptyState>
                )
                : (
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
                        {page.data.map((offer) => (
                          <tr>
                            <td>
                              <a class="row-link" href={`/panel/offers/${offer.public_id}`}>
                                {offer.name}
                              </a>
                            </td>
                            <td class="num">
                              <Money amount={offer.amount} currency={offer.currency} />
                            </td>
                            <td>{billingText(offer)}</td>
                            <td>
                              <StatusBadge status={offer.active === 1 ? "ACTIVE" : "INACTIVE"} />
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
                )}
              {page.hasMore && (
                <p class="pager">
                  <a
                    href={`/panel/offers?${new URLSearchParams({
                      ...(active && { active }),
                      startingAfter: page.data.at(-1)!.public_id,
                    })}`}
                  >
                    Older offers →
                  </a>
                </p>
              )}
            </Card>
          </>
        ),
      });
    })
    .get("/panel/offers/new", allow(services, "offers.manage"), (c) => newPage(c, {}, null))
    .post("/panel/offers", allow(services, "offers.manage"), async (c) => {
      const form = await readForm(c);
      const result = await attempt(() => createOffer(orgCtx(c), createRequest(form)));
      if (!result.ok) return newPage(c, form, result.problem, result.problem.status);
      return redirectWith(c, `/panel/offers/${result.value.public_id}`, "created");
    })
    .get("/panel/offers/:qrId", allow(services, "offers.view"), async (c) => {
      const offer = await getOffer(orgCtx(c), c.req.param("qrId"));
      return offerPage(c, offer, {}, null);
    })
    .post("/panel/offers/:qrId", allow(services, "offers.manage"), async (c) => {
      const ctx = orgCtx(c);
      const offer = await getOffer(ctx, c.req.param("qrId"));
      const form = await readForm(c);
      const result = await attempt(() => updateOffer(ctx, offer.public_id, updateRequest(form)));
      if (!result.ok) return offerPage(c, offer, form, result.problem, result.problem.status);
      return redirectWith(c, `/panel/offers/${offer.public_id}`, "saved");
    })
    .get("/panel/offers/:qrId/qr.svg", allow(services, "offers.view"), async (c) => {
      const offer = await getOffer(orgCtx(c), c.req.param("qrId"));
      const headers: Record<string, string> = {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "private, max-age=300",
        "X-Content-Type-Options": "nosniff",
      };
      if (c.req.query("download")) {
        headers["Content-Disposition"] = `attachment; filename="${offer.public_id}.svg"`;
      }
      return c.body(await offerQrSvg(publicUrl, offer.public_id), 200, headers);
    })
    .get("/panel/offers/:qrId/qr.png", allow(services, "offers.view"), async (c) => {
      const offer = await getOffer(orgCtx(c), c.req.param("qrId"));
      const png = await offerQrPng(publicUrl, offer.public_id);
      return c.body(png.slice().buffer as ArrayBuffer, 200, {
        "Content-Type": "image/png",
        "Cache-Control": "private, max-age=300",
        "Content-Disposition": `${
          c.req.query("download") ? "attachment" : "inline"
        }; filename="${offer.public_id}.png"`,
        "X-Content-Type-Options": "nosniff",
      });
    });
}
