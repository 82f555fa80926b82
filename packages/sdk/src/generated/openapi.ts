/**
 * @module sdk/generated/openapi: request and response types of the public API, generated from docs/openapi.json
 * by openapi-typescript. Do not edit: run `npm run sdk:types` (a test fails when this file drifts).
 */
export interface paths {
  '/api/public/v1/evaluate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit a batch of 1 to 10 scenarios
     * @description Exactly one of `scenario_ids` (stored scenarios; a result token is returned) or `blueprints` (ephemeral, ids `inline-1..n`, no token, no webhook). Unknown ids → 404 listing them; nothing is evaluated.
     */
    post: operations['submitEvaluation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/evaluate/inline': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Evaluate one blueprint synchronously (ephemeral unless save_to_workspace) */
    post: operations['evaluateInline'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/evaluations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Evaluation status */
    get: operations['getEvaluation'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/scenarios/{id}/results': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Latest results of a stored scenario */
    get: operations['getScenarioResults'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/violations/{violation_id}/remediation': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Remediation steps for one violation */
    get: operations['getRemediation'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/results/fetch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Redeem a result token once */
    post: operations['fetchResults'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/governance/policies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's effective policy catalog (cacheable for 24 hours)
     * @description For an organization with settings or custom rules, each policy carries `enabled`, `effective_severity` and its `parameters` (value and default), custom rules are listed with `source: "custom"`, and the ETag changes with the settings version and the rules revision.
     */
    get: operations['listPolicies'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/organization/rollup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Organization-wide score, top violations and framework coverage */
    get: operations['getOrganizationRollup'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/governance/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organization's policy settings (version 0: the defaults) */
    get: operations['getGovernanceSettings'];
    /**
     * Replace the policy settings (a new version)
     * @description Send `If-Match` with the ETag of the version you read to refuse a concurrent change (412). Evaluations submitted afterwards use the new version and record it; stored results change at their next evaluation.
     */
    put: operations['putGovernanceSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/governance/rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Custom rules in force, and the rules revision */
    get: operations['listCustomRules'];
    put?: never;
    /** Add a custom rule (declarative JSON; coded ORG-<n>) */
    post: operations['createCustomRule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/governance/rules/{code}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One custom rule (also a deleted one, with `deleted_at`) */
    get: operations['getCustomRule'];
    put?: never;
    post?: never;
    /** Delete a custom rule (its code is never reused) */
    delete: operations['deleteCustomRule'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/waivers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Waivers of the organization, newest first (`scenario_id`, `limit`, `after` query parameters) */
    get: operations['listWaivers'];
    put?: never;
    /**
     * Accept the risk of a policy on a scenario until a date
     * @description The waived findings stay in the results, marked `waived`, and leave the score, the badges, the rollup and `gov_violations_total`. The scenario is re-evaluated at once (`reevaluation_id`), and again when the waiver expires.
     */
    post: operations['createWaiver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/waivers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One waiver with its audit log */
    get: operations['getWaiver'];
    put?: never;
    post?: never;
    /** Revoke a waiver (kept for audit); its scenario is re-evaluated */
    delete: operations['revokeWaiver'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List endpoints */
    get: operations['listWebhooks'];
    put?: never;
    /** Register an endpoint (the secret is shown once) */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One endpoint */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /** Delete an endpoint and its pending deliveries */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Delivery log (newest 100) */
    get: operations['listDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Queue a delivery again now */
    post: operations['redeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/public/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document (no authentication) */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/overview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Fleet overview: the rollup, scenarios by worst badge, evaluations of the last 30 days */
    get: operations['consoleOverview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scenarios': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Scenarios sorted, filtered and paged on the server (`q`, `badge`, `sort`, `order`, `limit`, `cursor`)
     * @description `sort`: `name` (default), `score`, `badge`, `evaluated_at`, `violations`; never-evaluated scenarios sort after the others ascending. `badge`: critical, high, medium, low, info, clean, unknown, not_evaluated. `q`: case-insensitive substring of the name (its first 200 characters) or id; a search reads at most 50,000 index entries (past that `total_exact: false`). `limit` 1-200 (50). `cursor`: `next_cursor` of the previous page.
     */
    get: operations['consoleListScenarios'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/scenarios/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A scenario page: the scenario, its latest results and remediation, its history */
    get: operations['consoleGetScenario'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List endpoints */
    get: operations['consoleListWebhooks'];
    put?: never;
    /** Register an endpoint (the secret is shown once) */
    post: operations['consoleCreateWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete an endpoint and its pending deliveries */
    delete: operations['consoleDeleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Delivery log (newest 100) */
    get: operations['consoleListDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Queue a delivery again now */
    post: operations['consoleRedeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/waivers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Waivers of the organization, newest first (`scenario_id`, `limit`, `after` query parameters) */
    get: operations['consoleListWaivers'];
    put?: never;
    /**
     * Accept the risk of a policy on a scenario until a date
     * @description The waived findings stay in the results, marked `waived`, and leave the score, the badges, the rollup and `gov_violations_total`. The scenario is re-evaluated at once (`reevaluation_id`), and again when the waiver expires.
     */
    post: operations['consoleCreateWaiver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/waivers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke a waiver (kept for audit); its scenario is re-evaluated */
    delete: operations['consoleRevokeWaiver'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/governance/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organization's policy settings (version 0: the defaults) */
    get: operations['consoleGetGovernanceSettings'];
    /**
     * Replace the policy settings (a new version)
     * @description Send `If-Match` with the ETag of the version you read to refuse a concurrent change (412). Evaluations submitted afterwards use the new version and record it; stored results change at their next evaluation.
     */
    put: operations['consolePutGovernanceSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/governance/rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Custom rules in force, and the rules revision */
    get: operations['consoleListCustomRules'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The audit log, newest first (`limit` 1-200, `cursor`)
     * @description Sign-ins (and failed ones), sign-outs, and every change of keys, webhooks, waivers, settings, rules and users, made in the console or through the public API.
     */
    get: operations['consoleAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organization's console accounts (owner) */
    get: operations['consoleListUsers'];
    put?: never;
    /** Create a console account (owner); a generated password is shown once */
    post: operations['consoleCreateUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    WaiverCreate: {
      scenario_id: string;
      policy: string;
      /** @description One finding (or the violation) to waive */
      fingerprint?: string;
      /** @description The policy's findings on this module */
      module_id?: string;
      reason: string;
      /** @description Free text */
      approver?: string;
      /**
       * Format: date-time
       * @description In the future, at most one year ahead
       */
      expires_at: string;
    };
    WaiverAuditEntry: {
      at: string;
      /** @description `key:<key_id>`, `user:<user_id>` or `system` */
      actor: string;
      /** @enum {string} */
      action: 'created' | 'revoked' | 'expiring_notified' | 'expired';
      detail: string | null;
    };
    Waiver: {
      waiver_id: string;
      scenario_id: string;
      policy: string;
      fingerprint?: string | null;
      module_id?: string | null;
      reason: string;
      approver?: string | null;
      expires_at: string;
      /** @enum {string} */
      status: 'active' | 'expired' | 'revoked';
      created_at: string;
      created_by: string;
      revoked_at?: string | null;
      /** @description GET /waivers/{id} and changes only */
      audit?: components['schemas']['WaiverAuditEntry'][];
      /** @description The evaluation the change started (POST, DELETE); null when nothing changes */
      reevaluation_id?: string | null;
    };
    WaiverList: {
      waivers: components['schemas']['Waiver'][];
      /** @description Pass as `after` for the next page */
      next_after: string | null;
    };
    GovernanceSettingsBody: {
      disabled_policies?: string[];
      severity_overrides?: {
        [key: string]: components['schemas']['Severity'];
      };
      /** @description Values of the parameters the catalog declares, by name (GET /governance/policies `parameters`: `integer` or `string-list`) */
      parameters?: {
        [key: string]: number | string[];
      };
    };
    GovernanceSettings: {
      /** @description 0 = the defaults, never changed */
      version: number;
      disabled_policies: string[];
      severity_overrides: {
        [key: string]: components['schemas']['Severity'];
      };
      parameters: {
        [key: string]: number | string[];
      };
      updated_at?: string | null;
      updated_by?: string | null;
    };
    /** @description The rule body (docs/schemas/custom-rule.schema.json) with its code and creation metadata */
    CustomRule: {
      code: string;
      title: string;
      description?: string;
      severity: components['schemas']['Severity'];
      category?: string;
      /** @enum {string} */
      status?: 'fail' | 'warn';
      remediation?: string;
      compliance_frameworks?: components['schemas']['FrameworkRef'][];
      match: components['schemas']['CustomRuleCondition'];
      revision?: number;
      created_at: string;
      created_by?: string;
      deleted_at?: string | null;
    };
    CustomRuleList: {
      revision: number;
      rules: components['schemas']['CustomRule'][];
    };
    /** @description The settings version, custom-rules revision and catalog revision an evaluation used */
    GovernancePin: {
      settings_version: number;
      rules_revision: number;
      catalog_revision: string;
    };
    ConsoleOverview: {
      rollup: components['schemas']['Rollup'];
      /** @description Scenarios by worst badge; they sum to `rollup.scenarios_total` (`unknown` only when non-zero) */
      badges: {
        critical: number;
        high: number;
        medium: number;
        low: number;
        info: number;
        clean: number;
        not_evaluated: number;
        unknown?: number;
      } & {
        [key: string]: number;
      };
      /** @description The last 30 UTC days, oldest first */
      evaluations_by_day: {
        /** Format: date */
        day: string;
        evaluations: number;
        scenarios: number;
      }[];
    };
    FleetRow: {
      scenario_id: string;
      name: string;
      score: number | null;
      /**
       * @description Worst badge of the latest results; `clean` without violation; null when never evaluated
       * @enum {string|null}
       */
      badge: 'critical' | 'high' | 'medium' | 'low' | 'info' | 'clean' | 'unknown' | null;
      /** Format: date-time */
      evaluated_at: string | null;
      /** @description Counted violations by severity (null where a result stored before issue 18 does not tell) */
      violations: {
        critical: number | null;
        high: number | null;
        medium: number | null;
        low: number | null;
        info: number | null;
      };
      module_count: number;
    };
    ScenarioList: {
      scenarios: components['schemas']['FleetRow'][];
      /** @description Matches of the query over all pages */
      total: number;
      /**
       * @description Present when a `q` search stopped at its scan bound: `total` is a lower bound
       * @constant
       */
      total_exact?: false;
      next_cursor: string | null;
    };
    ScenarioPage: {
      scenario: {
        scenario_id: string;
        name: string;
        version: number;
        imported_at: string;
        module_count: number;
      };
      results: components['schemas']['ScenarioResults'];
      remediation: {
        [key: string]: components['schemas']['Remediation'] | null;
      };
      /** @description Newest first, at most 50 */
      history: {
        evaluation_id: string;
        evaluated_at: string;
        score: number;
        /** @description Counted violations by severity (null where a result stored before issue 18 does not tell) */
        violations: {
          critical: number | null;
          high: number | null;
          medium: number | null;
          low: number | null;
          info: number | null;
        };
      }[];
      /** @description The scenario drawn, failing modules marked */
      svg: string | null;
    };
    AuditList: {
      /** @description Newest first */
      entries: {
        at: string;
        /** @description `user:<id>`, `key:<id>` or `system` */
        actor: string;
        /** @description e.g. `session.sign_in`, `key.revoke`, `waiver.create` */
        action: string;
        target: string | null;
        detail: string | null;
      }[];
      next_cursor: string | null;
    };
    ConsoleUser: {
      user_id: string;
      org_id: string;
      email: string;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'member';
      created_at: string;
      /** @description Only in the creation response, when generated (shown once) */
      password?: string;
    };
    ConsoleUserList: {
      users: components['schemas']['ConsoleUser'][];
    };
    ConsoleUserCreate: {
      email: string;
      /** @enum {string} */
      role: 'owner' | 'admin' | 'member';
      /** @description Generated when absent */
      password?: string;
    };
    /** @description A Make.com scenario blueprint as the Make UI exports it (Scenario → Export blueprint), old Integromat exports included. Limits beyond this schema: at most 5000 modules, routes and error handlers nested at most 64 deep, module ids unique, JSON nested at most 512 deep (a 422 otherwise). */
    Blueprint: {
      /** @description Scenario name; `Untitled scenario` when empty or absent */
      name?: string | null;
      flow: components['schemas']['BlueprintFlow'];
      /** @description Scenario settings and canvas state */
      metadata?: components['schemas']['BlueprintMetadata'] | null;
      io?: components['schemas']['BlueprintIo'];
    } & {
      [key: string]: unknown;
    };
    /** @description A route: modules in execution order (the first module of the top-level flow is the trigger) */
    BlueprintFlow: components['schemas']['BlueprintModule'][];
    /** @description One module. Routers (`builtin:BasicRouter`) carry `routes`, if/else modules (`builtin:BasicIfElse`) `branches`, AI agents (`ai-local-agent:RunLocalAIAgent`) `tools`; any module may carry an error-handler route in `onerror`. */
    BlueprintModule: {
      /** @description Unique within the blueprint (not ordered); `{{N.field}}` expressions reference module N. `null` for an empty canvas slot (`placeholder:Placeholder`); a string of digits is read as the number. */
      id?: number | string | null;
      /** @description `app:Action` (`google-sheets:addRow`, `builtin:BasicRouter`); custom apps `app#<name>-<id>:<action>` */
      module: string;
      /** @description Version of the app module (1 to 7 in exports) */
      version?: number | null;
      /** @description Static settings chosen at design time: the connection `__IMTCONN__`, hook `__IMTHOOK__` / `hook`, `datastore`, keychain `auth`, toggles such as `handleErrors`; `null` when unconfigured */
      parameters?: {
        [key: string]: unknown;
      } | null;
      /** @description Runtime inputs; strings may embed `{{moduleId.field}}` expressions. HTTP modules: `url`, `method`, `headers[]`, `qs[]`, `bodyType`, `data`, ...; `null` on routers */
      mapper?: {
        [key: string]: unknown;
      } | null;
      /** @description Gate before this module; on the first module of a router route it is the route condition */
      filter?: components['schemas']['BlueprintFilter'] | null;
      metadata?: components['schemas']['BlueprintModuleMetadata'];
      /** @description Router routes (on `builtin:BasicRouter`), each with its own flow */
      routes?: components['schemas']['BlueprintRoute'][];
      /** @description Error-handler route of this module: ordinary modules, ending in a directive (`builtin:Ignore`, `builtin:Resume`, `builtin:Commit`, `builtin:Rollback`, `builtin:Break`) */
      onerror?: components['schemas']['BlueprintFlow'];
      /** @description If/else branches (on `builtin:BasicIfElse`): the first whose condition passes runs, else the `else` branch; a `builtin:BasicMerge` module after the if/else rejoins them */
      branches?: components['schemas']['BlueprintBranch'][];
      /** @description Tools of an AI agent (`ai-local-agent:RunLocalAIAgent`), each a flow the agent may run */
      tools?: components['schemas']['BlueprintTool'][];
    } & {
      [key: string]: unknown;
    };
    /** @description One if/else branch */
    BlueprintBranch: {
      flow?: components['schemas']['BlueprintFlow'];
      label?: string;
      /** @description `condition` or `else` */
      type?: string;
      /** @description The condition, as a filter's: `[[c1 AND c2] OR [c3]]`; absent on the `else` branch */
      conditions?: components['schemas']['BlueprintCondition'][][];
      /** @description The branch rejoins at the Merge module after the if/else */
      merge?: boolean;
      /** @description A branch switched off in the UI */
      disabled?: boolean;
    } & {
      [key: string]: unknown;
    };
    /** @description One tool of an AI agent: the modules it runs when the agent calls it */
    BlueprintTool: {
      flow?: components['schemas']['BlueprintFlow'];
      /** @description Tool name the model sees */
      name?: string;
      /** @description What the tool does, as the model is told */
      description?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description One router route */
    BlueprintRoute: {
      flow: components['schemas']['BlueprintFlow'];
      /** @description A route switched off in the UI */
      disabled?: boolean;
    } & {
      [key: string]: unknown;
    };
    /** @description A filter: OR of AND-groups of conditions */
    BlueprintFilter: {
      /** @description Label shown on the canvas */
      name?: string;
      /** @description `[[c1 AND c2] OR [c3]]`; empty for a filter with a name only */
      conditions?: components['schemas']['BlueprintCondition'][][];
    } & {
      [key: string]: unknown;
    };
    BlueprintCondition: {
      /** @description Left operand (usually an expression such as `{{1.id}}`) */
      a: string;
      /** @description Operator: `exist`, `text:equal`, `text:contain:ci`, `number:greater`, ... */
      o: string;
      /** @description Right operand; absent for unary operators (`exist`, `notexist`) */
      b?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description Canvas and UI state of a module. `restore` and `expect` mark a genuine export (hand-written blueprints lack them). */
    BlueprintModuleMetadata: {
      designer?: {
        x?: number;
        y?: number;
        /** @description Custom label */
        name?: string;
        messages?: unknown[];
      } & {
        [key: string]: unknown;
      };
      /** @description UI state of the fields: `{ parameters: { __IMTCONN__: { label, data } }, expect: {...} }` (the connection label often names the account); old Integromat exports hold field labels directly */
      restore?: {
        [key: string]: unknown;
      };
      /** @description Descriptions of `parameters` */
      parameters?: components['schemas']['BlueprintField'][];
      /** @description Descriptions of `mapper` fields */
      expect?: components['schemas']['BlueprintField'][];
      /** @description The module's output bundle */
      interface?: components['schemas']['BlueprintField'][];
      advanced?: boolean;
    } & {
      [key: string]: unknown;
    };
    /** @description A field description: `{ name, type, label, required }`; `type` such as `text`, `boolean`, `account:<app>`, `hook:<app>`, `keychain:<app>`, `datastore`, `udt` */
    BlueprintField: {
      name?: string;
      type?: string;
      label?: string | null;
      required?: boolean;
      multiple?: boolean;
      help?: string;
      /** @description Nested fields of a collection or array */
      spec?:
        | unknown[]
        | {
            [key: string]: unknown;
          };
    } & {
      [key: string]: unknown;
    };
    BlueprintMetadata: {
      /** @description True when the first module is an instant trigger (webhook, mailhook, app instant trigger); absent in old Integromat exports. The schedule itself is not in a blueprint. */
      instant?: boolean | null;
      /** @description Always 1 */
      version?: number;
      scenario?: components['schemas']['BlueprintScenarioSettings'];
      designer?: {
        /** @description Modules left on the canvas, not connected to the flow (Make never runs them): chains of modules. Their ids are unique with the flow's. */
        orphans?: (components['schemas']['BlueprintFlow'] | components['schemas']['BlueprintModule'])[];
        notes?: components['schemas']['BlueprintNote'][];
      } & {
        [key: string]: unknown;
      };
      /** @description Make zone, e.g. `eu2.make.com`, `us1.make.com` */
      zone?: string | null;
      /** @description Canvas notes */
      notes?: components['schemas']['BlueprintNote'][];
    } & {
      [key: string]: unknown;
    };
    /** @description Scenario settings (Make UI: Scenario settings). Old Integromat exports lack some flags. */
    BlueprintScenarioSettings: {
      /** @description Maximum cycles per run */
      roundtrips?: number;
      /** @description Consecutive errors before the scenario is deactivated */
      maxErrors?: number;
      /** @description Commit each operation at once */
      autoCommit?: boolean;
      /** @description Commit the trigger last */
      autoCommitTriggerLast?: boolean;
      /** @description Process executions one at a time, in order */
      sequential?: boolean;
      /** @description Concurrency slots; null: the default */
      slots?: number | null;
      /** @description Keep no execution data or logs */
      confidential?: boolean;
      /** @description "Enable data loss": drop an incomplete execution that cannot be stored instead of stopping */
      dataloss?: boolean;
      /** @description "Allow storing of incomplete executions" */
      dlq?: boolean;
      /** @description Reset variables each cycle */
      freshVariables?: boolean;
    } & {
      [key: string]: unknown;
    };
    /** @description A canvas note */
    BlueprintNote: {
      moduleIds?: (number | string)[];
      /** @description HTML */
      content?: string;
      isFilterNote?: boolean;
    } & {
      [key: string]: unknown;
    };
    /** @description Scenario inputs and outputs (scenarios run on demand with inputs or as subscenarios) */
    BlueprintIo: {
      input_spec?: components['schemas']['BlueprintField'][];
      output_spec?: components['schemas']['BlueprintField'][];
    } & {
      [key: string]: unknown;
    };
    /** @description Exactly one of `scenario_ids` (stored scenarios) or `blueprints` (ephemeral); a body with both or neither is refused (422). */
    EvaluateRequest: components['schemas']['StoredBatchRequest'] | components['schemas']['EphemeralBatchRequest'];
    /** @description Stored scenarios of the organization: a result token is returned, webhooks are delivered */
    StoredBatchRequest: {
      /** @description Every id must resolve in the organization (else 404) */
      scenario_ids: string[];
      /** @description If given, must equal the key's organization (else 403) */
      org_id?: string;
    };
    /** @description Blueprints evaluated without storing them: ids `inline-1..n`, no result token, no webhook */
    EphemeralBatchRequest: {
      blueprints: components['schemas']['Blueprint'][];
      /** @description If given, must equal the key's organization (else 403) */
      org_id?: string;
    };
    InlineEvaluationRequest: {
      blueprint: components['schemas']['Blueprint'];
      /** @description Add `remediation` by policy code */
      include_remediation?: boolean;
      /** @description Store the blueprint as a scenario (`saved.scenario_id`) */
      save_to_workspace?: boolean;
      /** @description Id of the saved copy (with `save_to_workspace`); default `ws-<uuid>` */
      scenario_id?: string;
    };
    ResultsFetchRequest: {
      result_token: string;
    };
    /**
     * Governance Evaluation Service custom rule
     * @description An organization's declarative rule (issue 17). Its code ORG-<n> is assigned by the service; the body has no code member. Limits beyond this schema (nesting, condition count, patterns in RE2 syntax within a program size, body size) are checked by the service and listed in docs/custom-rules.md.
     */
    CustomRuleBody: {
      title: string;
      description?: string;
      /** @enum {unknown} */
      severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
      /** @enum {unknown} */
      category: 'SEC' | 'DI' | 'ARC' | 'PRIV' | 'AI' | 'OPS';
      /**
       * @description Default `fail`
       * @enum {unknown}
       */
      status?: 'fail' | 'warn';
      compliance_frameworks?: {
        /** @enum {unknown} */
        framework:
          'SOC 2' | 'ISO/IEC 27001:2022' | 'HIPAA' | 'PCI DSS v4.0' | 'NIST SP 800-53 Rev. 5' | 'GDPR' | 'EU AI Act';
        control?: string;
        article?: string;
      }[];
      remediation: string;
      match: components['schemas']['CustomRuleCondition'];
    };
    /** @description One condition: `all`, `any`, `not`, `app`, `module`, `has_error_handler`, `followed_by_filter`, `is_trigger`, `value_from`, or `field` with one operator (docs/custom-rules.md) */
    CustomRuleCondition:
      | {
          all: components['schemas']['CustomRuleCondition'][];
        }
      | {
          any: components['schemas']['CustomRuleCondition'][];
        }
      | {
          not: components['schemas']['CustomRuleCondition'];
        }
      | {
          app: string | string[];
        }
      | {
          module: string | string[];
        }
      | {
          has_error_handler: boolean;
        }
      | {
          followed_by_filter: boolean;
        }
      | {
          is_trigger: boolean;
        }
      | {
          /** @enum {unknown} */
          value_from: 'untrusted' | 'personal';
          field?: string;
        }
      | {
          field: string;
          equals?: string | number | boolean;
          matches?: string;
          /** @constant */
          present?: true;
          /** @constant */
          absent?: true;
          domain_in?: string[];
          domain_not_in?: string[];
        };
    /**
     * @description critical > high > medium > low > info; `medium` is the fallback
     * @enum {string}
     */
    Severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
    /** @enum {string} */
    EvaluationStatusValue: 'pending' | 'processing' | 'complete' | 'error';
    /** @description Opaque leak-tracing mark; clients may ignore it */
    Watermark: string;
    Meta: {
      watermark: components['schemas']['Watermark'];
    };
    FieldError: {
      /** @description JSON Pointer into the request body */
      path: string;
      message: string;
    };
    ErrorResponse: {
      /** @constant */
      ok: false;
      /** @description Short stable string; treat as an open set */
      error: string;
      /** @description String, or for 422 the field errors */
      detail?: string | components['schemas']['FieldError'][];
      /** @description Legacy alias of a string `detail` */
      message?: string;
      /** @description Present on 500 responses; also in the server log */
      request_id?: string;
    };
    FrameworkRef: {
      framework: string;
      control?: string;
      article?: string;
    } & (unknown | unknown);
    Evidence: {
      /** @description RFC 6901 JSON Pointer into the blueprint */
      pointer: string;
      /** @description Excerpt; secrets redacted */
      value?: string;
    };
    /** @description A finding's evidence: where it is in the blueprint and, for a finding about data moving (issue 32), the path the data takes from its source to this module and the risk-model row that set the severity */
    FindingEvidence: {
      /** @description RFC 6901 JSON Pointer into the blueprint */
      pointer: string;
      /** @description Excerpt; secrets redacted */
      value?: string;
      /** @description Every place of the one thing the finding reports, `pointer` first, when it is in more than one (a literal secret copied into several modules is one finding) */
      locations?: {
        module_id: string;
        /** @description RFC 6901 JSON Pointer */
        pointer: string;
      }[];
      /** @description The modules the data passes through, in data-flow order: the source first, this module (the sink) last; present when the policy reports a flow */
      path?: components['schemas']['EvidencePathStep'][];
      risk?: components['schemas']['RiskRow'];
    };
    EvidencePathStep: {
      module_id: string;
      module_name: string;
      /** @enum {string} */
      role: 'source' | 'step' | 'sink';
      /** @description What happens to the data there, one line of Markdown (``maps `{{1.email}}` ``) */
      note: string;
    };
    /** @description The risk-model row (docs/engine.md, Risk model) that set the finding's severity, with the dimension values the policy observed. The finding's own `severity` may be lower: capped on a route that cannot run, or set by the organization */
    RiskRow: {
      /** @description Stable row id, e.g. `R7` */
      row: string;
      /** @description The row as stated in docs/engine.md */
      title: string;
      severity: components['schemas']['Severity'];
      /** @enum {string} */
      audience?: 'owner' | 'sender' | 'third-party' | 'public';
      /** @enum {string} */
      trust?: 'public-webhook' | 'inbound-message' | 'fetched-page' | 'ai-output' | 'internal-record' | 'constant';
      /** @enum {string} */
      sensitivity?: 'special-category' | 'personal' | 'credential' | 'none';
      /** @enum {string} */
      impact?: 'read' | 'write-own' | 'send' | 'spend' | 'change-access' | 'delete';
    };
    FailingModule: {
      module_id: string;
      module_name: string;
      module_type: string;
      reason: string;
      badge: components['schemas']['Severity'];
      severity?: components['schemas']['Severity'];
      evidence?: components['schemas']['FindingEvidence'];
      fingerprint?: string;
      waived?: components['schemas']['WaiverMark'];
    };
    /** @description Present on a waived violation or finding (issue 17): it counts in no score, badge or total */
    WaiverMark: {
      waiver_id: string;
      expires_at: string;
    };
    Violation: {
      policy: string;
      /** @enum {string} */
      status: 'fail' | 'warn';
      severity: components['schemas']['Severity'];
      title: string;
      description: string;
      remediation_available?: boolean;
      failing_modules: components['schemas']['FailingModule'][];
      source?: string;
      summary?: string;
      compliance_frameworks?: components['schemas']['FrameworkRef'][];
      category?: string;
      evidence?: components['schemas']['Evidence'];
      fingerprint?: string;
      waived?: components['schemas']['WaiverMark'];
    };
    ModuleViolation: {
      module_id: string;
      module_name: string;
      module_type: string;
      badge: components['schemas']['Severity'];
      violation_count: number;
      policies: string[];
    };
    ScenarioSummary: {
      id: string;
      name: string;
      score: number;
      violations: number;
      critical: number;
      compliance_gaps: string[];
      module_violations: components['schemas']['ModuleViolation'][];
      /** @description Present when this scenario failed alone */
      error?: string;
    };
    SubmitResult: {
      /** Format: uuid */
      evaluation_id: string;
      status: components['schemas']['EvaluationStatusValue'];
      total_scenarios: number;
      /** @description Single-use JWT (HS256), valid 900 s; stored batches only */
      result_token?: string;
    };
    EvaluationStatus: {
      evaluation_id: string;
      status: components['schemas']['EvaluationStatusValue'];
      total_scenarios: number;
      completed: number;
      created_at?: string;
      completed_at?: string | null;
      scenarios?: components['schemas']['ScenarioSummary'][];
      error?: string | null;
      governance?: components['schemas']['GovernancePin'];
      /**
       * @description `waiver`: the service re-evaluated after a waiver change or expiry
       * @enum {string}
       */
      trigger?: 'api' | 'waiver';
    };
    ScenarioResults: {
      scenario_id: string;
      scenario_name: string;
      name?: string;
      /** @enum {string} */
      evaluation_status: 'evaluated' | 'not_evaluated';
      violations: components['schemas']['Violation'][];
      module_summary: components['schemas']['ModuleViolation'][];
      evaluated_codes: string[];
      passing_count: number;
      failing_count: number;
      score?: number;
      compliance_gaps?: string[];
      /** @description Violations waived as a whole (issue 17) */
      waived_count?: number;
      /** @description When the first waiver applied lapses (the service re-evaluates then) */
      waivers_valid_until?: string | null;
      governance?: components['schemas']['GovernancePin'];
      evaluation_id?: string | null;
      evaluated_at?: string;
    };
    /** @description The fields of ScenarioResults under `name`, or `error` when this scenario failed alone */
    FetchedScenario: {
      scenario_id: string;
      name: string;
      scenario_name?: string;
      /** @enum {string} */
      evaluation_status?: 'evaluated' | 'not_evaluated';
      violations: components['schemas']['Violation'][];
      module_summary: components['schemas']['ModuleViolation'][];
      evaluated_codes: string[];
      passing_count: number;
      failing_count: number;
      score?: number;
      compliance_gaps?: string[];
      waived_count?: number;
      waivers_valid_until?: string | null;
      governance?: components['schemas']['GovernancePin'];
      evaluation_id?: string | null;
      evaluated_at?: string;
      error?: string;
    };
    ResultsFetch:
      | {
          evaluation_id?: string;
          /** @constant */
          status: 'processing';
          message: string;
        }
      | {
          evaluation_id?: string;
          /** @constant */
          status: 'error';
          error?: string | null;
          message: string;
        }
      | {
          evaluation_id?: string;
          /** @constant */
          status: 'complete';
          scenarios: components['schemas']['FetchedScenario'][];
        };
    Remediation: {
      policy?: string;
      /** @description Ordered; may contain Markdown emphasis */
      steps: string[];
      severity: components['schemas']['Severity'];
      /** @enum {string} */
      estimated_effort: 'low' | 'medium' | 'high';
      compliance_frameworks: components['schemas']['FrameworkRef'][];
    };
    GraphNode: {
      module_id: string;
      module_name: string;
      module_type: string;
      app: string;
      position: null | {
        x: number;
        y: number;
      };
      badge: null | components['schemas']['Severity'];
      violation_count: number;
      policies: string[];
    };
    GraphEdge: {
      from: string;
      to: string;
      /**
       * @description `next`: neighbours in one flow; `route`: router to a route; `error`: module to its error handler; `branch`: if/else to a branch; `merge`: end of a branch to the Merge module; `tool`: AI agent to a tool
       * @enum {string}
       */
      kind: 'next' | 'route' | 'error' | 'branch' | 'merge' | 'tool';
      /** @description Index of the route, branch or tool (`route`, `branch`, `merge`, `tool` edges) */
      route_index?: number;
      /** @description The route's filter name (`route`), the branch's label (`branch`) */
      filter?: string;
    };
    InlineResult: {
      scenario: {
        name: string;
        score: number;
        /** @constant */
        evaluation_status: 'evaluated';
      };
      violations: components['schemas']['Violation'][];
      module_graph: {
        nodes: components['schemas']['GraphNode'][];
        edges: components['schemas']['GraphEdge'][];
      };
      evaluated_codes: string[];
      passing_count: number;
      failing_count: number;
      compliance_gaps?: string[];
      /** @description By policy code; only with include_remediation */
      remediation?: {
        [key: string]: null | components['schemas']['Remediation'];
      };
      saved?: {
        scenario_id: string;
      };
      governance?: components['schemas']['GovernancePin'];
    };
    PolicyEntry: {
      code: string;
      title: string;
      category: string;
      severity: components['schemas']['Severity'];
      compliance_frameworks: components['schemas']['FrameworkRef'][];
      category_name?: string;
      description?: string;
      rationale?: string;
      remediation_effort?: string;
      /** @description Documentation page; null for a custom rule */
      docs?: string | null;
      /** @description The organization's override, else `severity` (issue 17) */
      effective_severity?: components['schemas']['Severity'];
      /** @description False when the organization disabled it */
      enabled?: boolean;
      /** @enum {string} */
      source?: 'builtin' | 'custom';
      /** @description Parameters the policy declares, with the value in force and the default */
      parameters?: {
        name: string;
        /** @enum {string} */
        type: 'integer' | 'string-list';
        description: string;
        value: number | string[];
        default: number | string[];
        minimum?: number;
        maximum?: number;
        max_items?: number;
        item_pattern?: string;
        item_max_length?: number;
      }[];
    };
    PolicyCatalog: {
      revision?: string;
      /** @description Present for an organization with settings or custom rules */
      settings_version?: number;
      rules_revision?: number;
      policies: components['schemas']['PolicyEntry'][];
    };
    Rollup: {
      /** @description Mean score over evaluated scenarios; null when none */
      score: number | null;
      scenarios_total: number;
      scenarios_evaluated: number;
      violations_total: number;
      critical_total: number;
      top_violations: {
        policy: string;
        title: string;
        severity: components['schemas']['Severity'];
        count: number;
        scenarios: number;
      }[];
      framework_coverage: {
        framework: string;
        controls_total: number;
        controls_met: number;
        coverage: number;
      }[];
      /** @description Waived findings (issue 17), counted in none of the totals above */
      waived_total?: number;
      waived?: {
        policy: string;
        /** @description Scenarios with a waived finding of it */
        scenarios: number;
      }[];
      updated_at: string;
    };
    WebhookCreate: {
      url: string;
      events?: ('evaluation.complete' | 'waiver.expiring')[];
      description?: string;
    };
    Webhook: {
      webhook_id: string;
      url: string;
      events: string[];
      description?: string | null;
      /** @enum {string} */
      status: 'active' | 'disabled';
      disabled_reason?: string | null;
      created_at: string;
      /** @description Only in the registration response */
      secret?: string;
    };
    WebhookList: {
      webhooks: components['schemas']['Webhook'][];
    };
    WebhookDeleted: {
      webhook_id: string;
      /** @constant */
      deleted: true;
    };
    Delivery: {
      delivery_id: string;
      event_type: string;
      evaluation_id?: string;
      /** @enum {string} */
      status: 'pending' | 'delivered' | 'failed';
      attempts: {
        at: string;
        status_code: number | null;
        error: string | null;
        duration_ms: number;
      }[];
      next_attempt_at?: string | null;
      created_at?: string;
    };
    DeliveryList: {
      deliveries: components['schemas']['Delivery'][];
    };
    Redelivery: {
      delivery_id: string;
      /** @constant */
      status: 'pending';
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description Requests allowed per clock minute */
    'X-RateLimit-Limit': number;
    /** @description Smaller of the remaining minute and hour budgets */
    'X-RateLimit-Remaining': number;
    /** @description Unix seconds when the minute window resets */
    'X-RateLimit-Reset': number;
    /** @description Seconds to wait */
    'Retry-After': number;
    /** @description `max-age=86400` */
    'Cache-Control': string;
    /** @description Catalog revision */
    ETag: string;
    /** @description `true` when this is the stored response of an earlier request with the same `Idempotency-Key`, replayed byte for byte (docs/api.md "Idempotency keys") */
    'Idempotent-Replayed': 'true';
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  submitEvaluation: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EvaluateRequest'];
      };
    };
    responses: {
      /** @description Accepted; poll GET /evaluations/{id} */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['SubmitResult'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `org_id does not match API key organization` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Unknown scenario_ids not found in this organization: <ids>` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` with `detail[]`; or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After` */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  evaluateInline: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['InlineEvaluationRequest'];
      };
    };
    responses: {
      /** @description Violations, module graph and optional remediation */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['InlineResult'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` with `detail[]` (paths into the blueprint); or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Evaluation capacity exhausted` or `Service is shutting down`; honour `Retry-After` */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getEvaluation: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Evaluation id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Status view; `scenarios[]` when complete */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['EvaluationStatus'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Not authorized for this evaluation` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Evaluation not found` (unknown, purged, or deleted by retention) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getScenarioResults: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Scenario id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Results, or `evaluation_status: not_evaluated` */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ScenarioResults'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Scenario not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getRemediation: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description `{scenario_id}:{policy_code}` (the scenario id is 1-128 characters) */
        violation_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ordered steps */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Remediation'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `violation_id must be {blueprint_id}:{policy_code}` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Scenario not found`, `Blueprint not found`, `Policy not found`, `Violation not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Remediation generation failed` (retry with backoff) or `Internal server error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  fetchResults: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResultsFetchRequest'];
      };
    };
    responses: {
      /** @description `processing` (token kept) or `complete` (token consumed) */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ResultsFetch'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Malformed token`; or `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Invalid, expired, or already-used result token` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Evaluation not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body`; or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  listPolicies: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Catalog */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['PolicyCatalog'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description Not modified (`If-None-Match` matched the `ETag`) */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getOrganizationRollup: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rollup of the caller organization */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Rollup'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getGovernanceSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Current settings */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['GovernanceSettings'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  putGovernanceSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['GovernanceSettingsBody'];
      };
    };
    responses: {
      /** @description Stored as a new version */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['GovernanceSettings'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Key lacks governance:manage permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Settings version mismatch` (`If-Match` is not the current version) */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (unknown policy or parameter, a value outside its declared bounds) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  listCustomRules: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rules by code */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['CustomRuleList'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  createCustomRule: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CustomRuleBody'];
      };
    };
    responses: {
      /** @description Stored, with its code and revision */
      201: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['CustomRule'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Key lacks governance:manage permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (the rule schema, a pattern the linear-time engine refuses, the limit of rules); or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getCustomRule: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Rule code (`ORG-<n>`) */
        code: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rule */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['CustomRule'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rule not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  deleteCustomRule: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Rule code (`ORG-<n>`) */
        code: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted, with `deleted_at` */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['CustomRule'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rule not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  listWaivers: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Waivers (active, expired and revoked) */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WaiverList'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (a bad query parameter) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  createWaiver: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WaiverCreate'];
      };
    };
    responses: {
      /** @description Created, with `reevaluation_id` */
      201: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Waiver'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Key lacks governance:manage permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Scenario not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (fields, unknown policy, expiry in the past or more than a year ahead, the limit of active waivers); or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getWaiver: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Waiver id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Waiver, with `audit` */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Waiver'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Waiver not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  revokeWaiver: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Waiver id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked, with `reevaluation_id` */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Waiver'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Waiver not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Endpoints (no secrets) */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WebhookList'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCreate'];
      };
    };
    responses: {
      /** @description Registered, with `secret` */
      201: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Webhook'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description Authentication rows, or `Key lacks webhooks:manage permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (URL rules, events); or `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Endpoint */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Webhook'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WebhookDeleted'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  listDeliveries: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deliveries with their attempts */
      200: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['DeliveryList'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  redeliver: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys") */
        'Idempotency-Key'?: string;
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
        /** @description Delivery id */
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Queued */
      202: {
        headers: {
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Redelivery'];
            meta: components['schemas']['Meta'];
          };
        };
      };
      /** @description `Invalid Idempotency-Key` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Missing or invalid Authorization header`, `Invalid API key format`, `Invalid or expired API key`, `API key context missing` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Browser access not allowed`, `IP address not allowed`, `Missing request signature`, `Invalid request signature`, `Key lacks <permission> permission` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found`, `Delivery not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook is disabled`; or `Idempotent request in progress` (the first request with this `Idempotency-Key` still runs); honour `Retry-After` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Request body too large` (over 2 MiB) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Idempotency-Key reused with a different request` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Rate limit exceeded`; honour `Retry-After` */
      429: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Internal server error` with `request_id` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Service is shutting down` (graceful shutdown; the connection closes) or `Service temporarily unavailable` (cluster mode: the shared store cannot be reached): retry after `Retry-After`, on another node when there is one */
      503: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  getOpenApi: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OpenAPI 3.1 document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            openapi: string;
            info: {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description `Browser access not allowed` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleOverview: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Overview of the session organization */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ConsoleOverview'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListScenarios: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ScenarioList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (a bad query parameter) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleGetScenario: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Scenario id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ScenarioPage'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Scenario not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListWebhooks: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Endpoints (no secrets) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WebhookList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleCreateWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCreate'];
      };
    };
    responses: {
      /** @description Registered, with `secret` */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Webhook'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (URL rules, events) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleDeleteWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WebhookDeleted'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListDeliveries: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deliveries with their attempts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['DeliveryList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleRedeliver: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Webhook id */
        id: string;
        /** @description Delivery id */
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Queued */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Redelivery'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook not found`, `Delivery not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Webhook is disabled` */
      409: {
        headers: {
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListWaivers: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Waivers (active, expired and revoked) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['WaiverList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (a bad query parameter) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleCreateWaiver: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WaiverCreate'];
      };
    };
    responses: {
      /** @description Created, with `reevaluation_id` */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Waiver'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Scenario not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (fields, unknown policy, expiry in the past or more than a year ahead, the limit of active waivers) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleRevokeWaiver: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path: {
        /** @description Waiver id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked, with `reevaluation_id` */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['Waiver'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Waiver not found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleGetGovernanceSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Current settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['GovernanceSettings'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consolePutGovernanceSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['GovernanceSettingsBody'];
      };
    };
    responses: {
      /** @description Stored as a new version */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['GovernanceSettings'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (a member, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Settings version mismatch` (`If-Match` is not the current version) */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (unknown policy or parameter, a value outside its declared bounds) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListCustomRules: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rules by code */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['CustomRuleList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleAudit: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Entries and the next cursor */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['AuditList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (another organization, or a role below the one required) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (a bad `limit` or `cursor`) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleListUsers: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accounts (never a password hash) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ConsoleUserList'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (not an owner, or another organization) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
  consoleCreateUser: {
    parameters: {
      query?: never;
      header?: {
        /** @description The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400) */
        'X-Request-Id'?: string;
        /** @description W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ConsoleUserCreate'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            data: components['schemas']['ConsoleUser'];
          };
        };
      };
      /** @description `Session authentication required` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Not authorized` (not an owner), or `CSRF token missing or invalid` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      /** @description `Invalid request body` (e-mail, role, the password policy, or the e-mail is taken) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
    };
  };
}
