/** The panel's home page and its go-live checklist. */
export const panelHome = {
  "panel.home.welcome": "Your password is set. Welcome to Paystead.",
  "panel.home.joined": "You joined the organisation. Welcome.",
} as const;
