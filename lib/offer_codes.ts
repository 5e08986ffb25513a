import { offerPayUrl } from "./offers.ts";

/**
 * The QR encoder, loaded at the first code drawn: a payment API that never draws one does not
 * hold it (about 4 MiB of heap). A string-literal import, so `deno compile` embeds it.
 */
async function qrcode() {
  return (await import("qrcode")).default;
}

/** How an offer's QR code is drawn everywhere: medium error correction, a 2-module margin. */
const QR_OPTIONS = { errorCorrectionLevel: "M", margin: 2 } as const;

/** The offer's QR code as SVG: it encodes the public pay URL `{base}/o/{qrId}`. */
export async function offerQrSvg(publicUrl: string, qrId: string): Promise<string> {
  return (await qrcode()).toString(offerPayUrl(publicUrl, qrId), { ...QR_OPTIONS, type: "svg" });
}

/** The offer's QR code as a PNG of about `width` pixels, for print and chat apps. */
export async function offerQrPng(
  publicUrl: string,
  qrId: string,
  width = 1024,
): Promise<Uint8Array> {
  const buffer = await (await qrcode()).toBuffer(offerPayUrl(publicUrl, qrId), {
    ...QR_OPTIONS,
    type: "png",
    width,
  });
  return new Uint8Array(buffer);
}
