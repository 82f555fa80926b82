/**
 * @module engine/money: payments and orders, the events whose forgery or loss costs money. Two
 * questions, one vocabulary: does a webhook deliver a payment or order event (SEC-5: a forged one
 * becomes a paid invoice or a delivered product), and does a module move money (DI-1: a failed
 * payment call is ambiguous, and re-running the run can pay twice). Sources: Stripe API reference
 * (`POST /v1/charges`, `/v1/payment_intents`, `/v1/transfers`, `/v1/payouts`, `/v1/refunds`, all with
 * `amount`; "Idempotent requests"), PayPal Payouts (`POST /v1/payments/payouts`), Wise
 * (`POST /v1/transfers`), Wompi and Shopify/WooCommerce order webhooks (`data.transaction.*`,
 * `order_id`, `payment_status`), corpus make `6302mohamed-e-commerce-order-processing...`,
 * `luxisoft-webhook-pago` (hook *RECIBIR PAGO*) and `bicced-send-sol-and-eth-every-week-to-address`
 * (`POST https://api.afkcrypto.com/v1/send` with `amount`).
 */
import type { ModuleNode } from './blueprint/types.js';
import { classify, httpMethod, moduleUrl } from './blueprint/classify.js';
import { actionWords } from './blueprint/verbs.js';

/** Words of a hook or module label that name a payment or order event, in the corpora's languages (`RECIBIR PAGO`, `Order webhook`). */
const PAYMENT_LABEL =
  /\b(?:payments?|paid|orders?|invoices?|transactions?|checkouts?|purchases?|charges?|refunds?|pagos?|pedidos?|facturas?|compras?|cobros?|paiements?|commandes?|factures?|zahlungen?|bestellungen?|rechnungen?|pagamentos?|ordini|fatture)\b/i;
/** Words of a payload field name that name a payment or order (`order_id`, `payment_status`, `data.transaction.id`). */
const PAYMENT_FIELD_WORDS: ReadonlySet<string> = new Set([
  'order',
  'orders',
  'payment',
  'payments',
  'invoice',
  'invoices',
  'transaction',
  'transactions',
  'checkout',
  'purchase',
  'charge',
  'refund',
  'paid',
  'pago',
  'pedido',
  'factura',
]);
/** Distinct payload fields with a payment word it takes to call a payload a payment event without its label saying so. */
const PAYMENT_FIELDS_NEEDED = 2;

/** Apps whose actions move money (Make apps; none in the corpora, matched with `MONEY_ACTION_WORDS`). */
const PAYMENT_APPS: ReadonlySet<string> = new Set([
  'stripe',
  'paypal',
  'square',
  'braintree',
  'adyen',
  'mollie',
  'gocardless',
  'razorpay',
  'paddle',
  'wise',
  'transferwise',
  'revolut-business',
  'coinbase',
  'coinbase-commerce',
  'mercadopago',
  'mercado-pago',
  'wompi',
  'paystack',
  'flutterwave',
  'klarna',
  'checkout-com',
]);
/** Action words of a payment app that move money (`createACharge`, `createAPayout`, `refundAPayment`, `createATransfer`). */
const MONEY_ACTION_WORDS: ReadonlySet<string> = new Set([
  'charge',
  'charges',
  'payment',
  'payments',
  'payout',
  'payouts',
  'transfer',
  'transfers',
  'refund',
  'refunds',
  'capture',
  'withdraw',
  'withdrawal',
]);
/** Path segments of an HTTP call that move money when the body has an amount (`/v1/charges`, `/v1/send`, `/payments/payouts`). */
const MONEY_PATH =
  /\/(?:send|charges?|payment_intents|payments?|payouts?|transfers?|refunds?|withdraw(?:als?)?|captures?)(?:[/?#]|$)/i;
/** An `amount` member of a request body (JSON text, form fields), the field every payment API above requires. */
const AMOUNT_KEY = /["']?\bamount(?:_?(?:cents|minor|value))?\b["']?\s*[:=]/i;

/**
 * True when a webhook delivers a payment or order event: its hook or module label names one
 * (`PAYMENT_LABEL`), or at least two distinct payload fields it is read by do (`order_id`,
 * `payment_status`; `data.transaction.id`, `data.transaction.status`).
 * @param label The hook label and the module's custom label.
 * @param paths The payload paths the scenario reads (`data.transaction.reference`).
 */
export function isPaymentEvent(label: string, paths: readonly string[]): boolean {
  if (PAYMENT_LABEL.test(label.replace(/[_-]+/g, ' '))) return true;
  const hits = new Set<string>();
  for (const p of paths)
    if (p.split(/[.[\]_\s-]+|(?<=[a-z])(?=[A-Z])/).some((w) => PAYMENT_FIELD_WORDS.has(w.toLowerCase()))) hits.add(p);
  return hits.size >= PAYMENT_FIELDS_NEEDED;
}

/**
 * True when a module moves money: a payment app's charge, payment, payout, transfer or refund
 * action, or an HTTP write to a payment path (`MONEY_PATH`) whose body carries an `amount`.
 */
export function movesMoney(m: ModuleNode): boolean {
  const cls = classify(m);
  if (cls.role !== 'write') return false;
  if (PAYMENT_APPS.has(m.app)) return actionWords(m.action).some((w) => MONEY_ACTION_WORDS.has(w));
  if (!cls.http || httpMethod(m) === 'GET') return false;
  const url = moduleUrl(m) ?? '';
  if (!MONEY_PATH.test(url.split('?')[0] ?? '')) return false;
  return bodyTexts(m).some((t) => AMOUNT_KEY.test(t));
}

/** The request body of an HTTP module as text: JSON or raw `data`, `jsonStringBodyContent`, form field names (`name=`); empty when it has none. */
export function bodyTexts(m: ModuleNode): string[] {
  const out: string[] = [];
  for (const key of ['data', 'jsonStringBodyContent', 'body', 'bodyContent', 'rawBodyContent']) {
    const v = m.mapper?.[key];
    if (typeof v === 'string') out.push(v);
  }
  for (const key of ['formFields', 'formDataFields', 'urlEncodedBodyContent']) {
    const v = m.mapper?.[key];
    if (!Array.isArray(v)) continue;
    for (const f of v) {
      if (!f || typeof f !== 'object' || Array.isArray(f)) continue;
      const name = f['key'] ?? f['name'] ?? '';
      // A field name is a scalar; a container (malformed export) names nothing.
      out.push(`${typeof name === 'object' ? '' : String(name)}=`);
    }
  }
  return out;
}
