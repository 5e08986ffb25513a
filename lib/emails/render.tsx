import { renderToString } from "preact-render-to-string";
import { CustomerEmail } from "../../components/emails/CustomerEmail.tsx";
import { type EmailModel, emailParts, emailText, type RenderedEmail } from "./content.ts";

/** Renders a customer e-mail: subject, plain text and HTML, all in the model's language. */
export function renderEmail(model: EmailModel): RenderedEmail {
  const parts = emailParts(model);
  return {
    language: model.language,
    subject: parts.subject,
    text: emailText(parts),
    html: `<!doctype html>${
      renderToString(<CustomerEmail parts={parts} language={model.language} />)
    }`,
  };
}
