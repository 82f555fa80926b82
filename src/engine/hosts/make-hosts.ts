/**
 * @module engine/hosts/make-hosts: the hosts of Make itself, which a blueprint calls through the HTTP
 * app (its own API, its own webhooks). Make runs in zones, each a host of its own (`eu1.make.com`,
 * `us2.make.com`, `eu1.make.celonis.com` for Make operated by Celonis; `integromat.com`, the platform's
 * former name, still answers): Make help, *Make zones*, and the Make API reference
 * (https://developers.make.com/api-documentation, "base URL … `https://{zone}.make.com/api/v2`").
 * Incoming webhooks are served on `hook.<zone>.<domain>` (Make help, *Webhooks*; corpus
 * `hook.eu1.make.com`, `hook.us1.make.celonis.com`, `hook.integromat.com`).
 */

/** Any host of Make's domains, Make's zones and webhooks included (`eu1.make.com`, `hook.us1.make.celonis.com`). */
export const MAKE_DOMAIN_HOST = /(?:^|\.)(?:make\.com|make\.celonis\.com|integromat\.com)$/;

/** The host of a zone's Make API (`eu1.make.com`, `us2.make.celonis.com`, `integromat.com`). */
export const MAKE_API_HOST =
  /^(?:(?:eu|us)\d\.make\.com|(?:eu|us)\d\.make\.celonis\.com|(?:www\.)?integromat\.com|eu\d\.integromat\.com)$/;

/** The host of Make's incoming webhooks (`hook.eu1.make.com`, `hook.us1.make.celonis.com`, `hook.integromat.com`). */
export const MAKE_HOOK_HOST = /^hook\.(?:[a-z0-9-]+\.)*(?:make\.com|make\.celonis\.com|integromat\.com)$/;
