import type { Seller } from "../lib/checkout/seller.ts";
import type { Translator } from "../lib/i18n/mod.ts";
import { LockIcon } from "./icons.tsx";

/**
 * The foot of a payment page: who is paid (legal name, address, NIP, contact; the consumer
 * rights act wants the seller named) and who secures the payment.
 */
export function SellerFooter(props: { seller: Seller; t: Translator["t"] }) {
  const { seller, t } = props;
  return (
    <footer class="seller">
      <p class="seller__name">
        <span class="seller__label">{t("footer.seller")}:</span> {seller.name}
      </p>
      {seller.address.length > 0 && (
        <address class="seller__address">
          {seller.address.map((line, index) => (
            <span key={index} class="seller__line">{line}</span>
          ))}
        </address>
      )}
      {seller.taxId && <p>{t("footer.taxId", { taxId: seller.taxId })}</p>}
      {(seller.email || seller.phone) && (
        <p class="seller__contact">
          <span class="seller__label">{t("footer.contact")}:</span>
          {seller.email && (
            <span>
              {" "}
              {t("footer.email")}: <a href={`mailto:${seller.email}`}>{seller.email}</a>
            </span>
          )}
          {seller.phone && (
            <span>
              {" "}
              {t("footer.phone")}:{" "}
              <a href={`tel:${seller.phone.replace(/[^\d+]/g, "")}`}>{seller.phone}</a>
            </span>
          )}
        </p>
      )}
      <p class="secured-by">
        <LockIcon class="icon icon--small" /> {t("securedBy")}
      </p>
    </footer>
  );
}
