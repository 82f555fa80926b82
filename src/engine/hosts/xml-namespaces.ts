/**
 * @module engine/hosts/xml-namespaces: hosts of XML namespace names. A namespace name is a URI that
 * looks like a URL but is an identifier, never fetched (W3C, *Namespaces in XML 1.0*, §2: "not
 * intended to be directly usable for retrieval"), so an `http://` one is no plain-HTTP call (SEC-3).
 * Hosts: W3C (`www.w3.org`: XML Schema, XHTML, SVG…), SOAP 1.1 and WSDL (`schemas.xmlsoap.org`),
 * Microsoft Office and .NET schemas (`schemas.microsoft.com`), Dublin Core and other PURLs
 * (`purl.org`), Adobe XMP (`ns.adobe.com`), FOAF (`xmlns.com`), Sitemaps (`www.sitemaps.org`).
 */

/** A host of XML namespace names. */
export const NAMESPACE_HOSTS =
  /^(?:www\.w3\.org|schemas\.xmlsoap\.org|schemas\.microsoft\.com|purl\.org|ns\.adobe\.com|xmlns\.com|www\.sitemaps\.org)$/;
