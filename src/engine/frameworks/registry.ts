/**
 * @module engine/frameworks/registry: every compliance control the catalog may cite, with its title.
 * Sources: AICPA Trust Services Criteria (2017, revised points of focus 2022); ISO/IEC 27001:2022
 * Annex A; HIPAA Security Rule 45 CFR §164.312; PCI DSS v4.0; NIST SP 800-53 Rev. 5; GDPR
 * (Regulation (EU) 2016/679); EU AI Act (Regulation (EU) 2024/1689).
 */

/** Framework names as they appear in `compliance_frameworks[].framework`. */
export const FRAMEWORKS = {
  soc2: 'SOC 2',
  iso27001: 'ISO/IEC 27001:2022',
  hipaa: 'HIPAA',
  pci: 'PCI DSS v4.0',
  nist: 'NIST SP 800-53 Rev. 5',
  gdpr: 'GDPR',
  aiAct: 'EU AI Act',
} as const;

/** A framework name. */
export type FrameworkName = (typeof FRAMEWORKS)[keyof typeof FRAMEWORKS];

/** Frameworks whose references are articles (`article`), not controls (`control`). */
export const ARTICLE_FRAMEWORKS: ReadonlySet<FrameworkName> = new Set([FRAMEWORKS.gdpr, FRAMEWORKS.aiAct]);

/** Valid identifiers per framework, with titles. A test checks every catalog reference against this table. */
export const CONTROL_REGISTRY: Readonly<Record<FrameworkName, Readonly<Record<string, string>>>> = {
  'SOC 2': {
    'CC6.1': 'Logical access security software, infrastructure and architectures',
    'CC6.6': 'Security measures against threats from sources outside system boundaries',
    'CC6.7': 'Restriction of transmission, movement and removal of information',
    'CC7.2': 'Monitoring of system components for anomalies',
    'CC7.3': 'Evaluation of security events',
    'CC8.1': 'Authorisation, design, testing and approval of changes',
    'CC9.2': 'Assessment and management of vendor and business partner risks',
    'PI1.3': 'System processing is complete, valid, accurate and timely',
    'PI1.4': 'System output is complete, accurate and timely',
    'A1.2': 'Environmental protections, data back-up processes and recovery infrastructure',
    'C1.1': 'Identification and maintenance of confidential information',
    'P4.2': 'Retention of personal information',
    'P6.1': 'Disclosure of personal information to third parties',
  },
  'ISO/IEC 27001:2022': {
    'A.5.15': 'Access control',
    'A.5.17': 'Authentication information',
    'A.5.23': 'Information security for use of cloud services',
    'A.5.34': 'Privacy and protection of personal identifiable information (PII)',
    'A.8.3': 'Information access restriction',
    'A.8.5': 'Secure authentication',
    'A.8.6': 'Capacity management',
    'A.8.9': 'Configuration management',
    'A.8.11': 'Data masking',
    'A.8.12': 'Data leakage prevention',
    'A.8.13': 'Information backup',
    'A.8.14': 'Redundancy of information processing facilities',
    'A.8.15': 'Logging',
    'A.8.16': 'Monitoring activities',
    'A.8.20': 'Networks security',
    'A.8.21': 'Security of network services',
    'A.8.24': 'Use of cryptography',
    'A.8.25': 'Secure development life cycle',
    'A.8.26': 'Application security requirements',
    'A.8.28': 'Secure coding',
    'A.8.32': 'Change management',
  },
  HIPAA: {
    '§164.312(a)(1)': 'Access control',
    '§164.312(b)': 'Audit controls',
    '§164.312(c)(1)': 'Integrity',
    '§164.312(d)': 'Person or entity authentication',
    '§164.312(e)(1)': 'Transmission security',
    '§164.312(e)(2)(ii)': 'Encryption (transmission)',
  },
  'PCI DSS v4.0': {
    '3.4.1': 'PAN is masked when displayed',
    '3.5.1': 'PAN is rendered unreadable anywhere it is stored',
    '4.2.1': 'Strong cryptography safeguards PAN during transmission over open, public networks',
    '6.2.4': 'Software engineering techniques prevent or mitigate common software attacks',
    '8.3.2': 'Strong cryptography renders authentication factors unreadable in transmission and storage',
    '8.6.2': 'Passwords for application and system accounts are not hard coded in scripts or configuration',
    '10.2.1': 'Audit logs are enabled and active',
  },
  'NIST SP 800-53 Rev. 5': {
    'AC-3': 'Access Enforcement',
    'AC-4': 'Information Flow Enforcement',
    'AU-2': 'Event Logging',
    'AU-6': 'Audit Record Review, Analysis, and Reporting',
    'CM-2': 'Baseline Configuration',
    'CM-6': 'Configuration Settings',
    'CP-9': 'System Backup',
    'CP-10': 'System Recovery and Reconstitution',
    'IA-5': 'Authenticator Management',
    'IA-5(7)': 'Authenticator Management | No Embedded Unencrypted Static Authenticators',
    'IR-6': 'Incident Reporting',
    'SA-8': 'Security and Privacy Engineering Principles',
    'SA-9': 'External System Services',
    'SC-7': 'Boundary Protection',
    'SC-8': 'Transmission Confidentiality and Integrity',
    'SC-8(1)': 'Transmission Confidentiality and Integrity | Cryptographic Protection',
    'SC-6': 'Resource Availability',
    'SC-23': 'Session Authenticity',
    'SI-4': 'System Monitoring',
    'SI-10': 'Information Input Validation',
    'SI-11': 'Error Handling',
    'SI-12': 'Information Management and Retention',
  },
  GDPR: {
    'Art. 5(1)(c)': 'Principles: data minimisation',
    'Art. 5(1)(f)': 'Principles: integrity and confidentiality',
    'Art. 5(1)(e)': 'Principles: storage limitation',
    'Art. 9': 'Processing of special categories of personal data',
    'Art. 22': 'Automated individual decision-making, including profiling',
    'Art. 25': 'Data protection by design and by default',
    'Art. 28': 'Processor',
    'Art. 30': 'Records of processing activities',
    'Art. 32': 'Security of processing',
    'Art. 44': 'General principle for transfers',
  },
  'EU AI Act': {
    'Art. 10': 'Data and data governance',
    'Art. 12': 'Record-keeping',
    'Art. 13': 'Transparency and provision of information to deployers',
    'Art. 14': 'Human oversight',
    'Art. 15': 'Accuracy, robustness and cybersecurity',
    'Art. 26': 'Obligations of deployers of high-risk AI systems',
    'Art. 50': 'Transparency obligations for providers and deployers of certain AI systems',
  },
};

/** One compliance-framework row of a policy (spec §2 Remediation: `framework` and `control` or `article`). */
export type FrameworkRef =
  | { readonly framework: FrameworkName; readonly control: string }
  | { readonly framework: FrameworkName; readonly article: string };

/** Builds a framework row, choosing `article` for GDPR and the EU AI Act and `control` elsewhere. */
export function ref(framework: FrameworkName, id: string): FrameworkRef {
  return ARTICLE_FRAMEWORKS.has(framework) ? { framework, article: id } : { framework, control: id };
}

/** The identifier of a row (`CC6.1`, `Art. 32`). */
export function refId(r: FrameworkRef): string {
  return 'control' in r ? r.control : r.article;
}

/** The compliance-gap label of a row: `"SOC 2 CC6.1"`, `"GDPR Art. 32"`. */
export function gapLabel(r: FrameworkRef): string {
  let label = LABELS.get(r);
  if (label === undefined) LABELS.set(r, (label = `${r.framework} ${refId(r)}`));
  return label;
}

/** Labels of the catalog's rows, made once per row (the rows are the policies' static `compliance_frameworks`). */
const LABELS = new WeakMap<FrameworkRef, string>();
