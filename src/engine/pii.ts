/**
 * @module engine/pii: personal-data field names (GDPR Art. 4(1) "personal data"; Art. 9 special
 * categories; PCI DSS cardholder data). A field is judged by the last segment of its path.
 */
import { boundedMemo } from './memo.js';

/** Kinds of personal data recognised. `special` kinds are GDPR Art. 9 / PCI-scope data. */
export type PiiKind = 'email' | 'phone' | 'name' | 'address' | 'birth-date' | 'national-id' | 'card' | 'bank-account' | 'health' | 'ip-address';

/** Kinds that need the strictest handling (GDPR Art. 9 special categories, national ids, card data). */
export const SPECIAL_PII: ReadonlySet<PiiKind> = new Set(['national-id', 'card', 'health', 'bank-account']);

/** Field-name patterns per kind, matched against the normalised last path segment (lower case, no separators). */
const TABLE: readonly (readonly [PiiKind, RegExp])[] = [
  ['email', /^(?:e?mail|emailaddress|email\d|useremail|customeremail|contactemail|from|to|replyto|sender|recipient)$|email/],
  ['phone', /phone|mobile|cell(?:ular)?number|whatsapp|msisdn|^tel$|telephone/],
  ['name', /^(?:first|last|full|given|family|middle|sur|customer|contact|user|client|person|display)name$|^(?:firstname|lastname|fullname|surname|nombre|apellido|nom|prenom)$/],
  ['address', /^(?:address|street|streetaddress|addressline\d?|postcode|postalcode|zip|zipcode|city|billingaddress|shippingaddress|direccion)$/],
  ['birth-date', /^(?:dob|dateofbirth|birthdate|birthday|birth)$/],
  ['national-id', /^(?:ssn|socialsecuritynumber|nationalid|nationalidnumber|taxid|nif|nie|dni|passport|passportnumber|driverslicense|personalid|cpf|curp|pesel)$/],
  ['card', /^(?:cardnumber|creditcard|creditcardnumber|ccnumber|pan|cvv|cvc|cardcvc|expiry|cardexpiry)$/],
  ['bank-account', /^(?:iban|accountnumber|bankaccount|routingnumber|sortcode|bic|swift)$/],
  ['health', /^(?:diagnosis|medical|medicalrecord|condition|symptoms|medication|prescription|healthdata|patient|patientid|allergies|bloodtype|treatment)$/],
  ['ip-address', /^(?:ip|ipaddress|clientip|remoteip)$/],
];

/** The kind of personal data a field path names, or `null`. `items[].email` → `email`. Memoised. */
export const piiKind: (path: string) => PiiKind | null = boundedMemo(50_000, (path) => computePiiKind(path));

function computePiiKind(path: string): PiiKind | null {
  const last = path.split('.').pop() ?? '';
  const n = last.replace(/\[\]/g, '').toLowerCase().replace(/[\s_-]/g, '');
  if (n === '') return null;
  for (const [kind, re] of TABLE) if (re.test(n)) return kind;
  return null;
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
/** Documentation and test domains (RFC 2606 / RFC 6761) are not anyone's personal data. */
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;

/**
 * Literal e-mail addresses in `text`, found from each `@` outwards (linear time, no regex
 * backtracking). Mapped values (`{{1.email}}`) and reserved example domains are skipped.
 * @returns `[start, end)` offsets of each address.
 */
export function findEmails(text: string): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('@', from);
    if (at < 0) break;
    let start = at;
    while (start > 0 && at - start < 64 && LOCAL_CHAR.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && end - at < 254 && DOMAIN_CHAR.test(text[end]!)) end++;
    while (end > at + 1 && text[end - 1] === '.') end--;
    const domain = text.slice(at + 1, end);
    if (start < at && /\.[A-Za-z]{2,24}$/.test(domain) && !RESERVED_DOMAIN.test(domain)) out.push([start, end]);
    from = Math.max(end, at + 1);
  }
  return out;
}
