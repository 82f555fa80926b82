/**
 * @module engine/hosts/mail-domains: the domains of consumer (free) e-mail services, on which anyone
 * can open an address: two addresses sharing one of these domains say nothing about a team (AI-1,
 * AI-4 audience). Each domain is the provider's own, as its service names it: Gmail (`gmail.com`,
 * `googlemail.com`), Outlook.com (`outlook.com`, `hotmail.com`, `live.com`), Yahoo Mail, iCloud Mail
 * (`icloud.com`, `me.com`), AOL Mail, Proton Mail (`proton.me`, `protonmail.com`), GMX (`gmx.com`,
 * `gmx.de`), Mail.ru, Yandex Mail, WEB.DE.
 */

/** Consumer e-mail domains, lower case. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'mail.ru',
  'yandex.ru',
  'web.de',
]);
