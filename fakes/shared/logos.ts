/**
 * Logos the fakes serve themselves, so a method list's image URLs resolve with no outside network:
 * a tile with the method's short name in its own colour.
 */
import { escapeHtml } from "./page.ts";

/** An SVG tile reading `label`. */
export function logoSvg(label: string): string {
  let hash = 0;
  for (const char of label) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const text = escapeHtml(label.slice(0, 12));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48" viewBox="0 0 96 48" role="img" aria-label="${text}">` +
    `<rect width="96" height="48" rx="8" fill="hsl(${hue},55%,35%)"/>` +
    `<text x="48" y="30" font-family="sans-serif" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">${text}</text>` +
    `</svg>`;
}

/** The SVG response for a logo. */
export function logoResponse(label: string): Response {
  return new Response(logoSvg(label), {
    headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=3600" },
  });
}
