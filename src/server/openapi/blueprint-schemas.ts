/**
 * @module server/openapi/blueprint-schemas: the Make.com scenario blueprint (a UI export) as JSON
 * Schema 2020-12 for `components.schemas` (issue 19 §3). Source: ../shared/corpus/make/FORMAT.md
 * (50 real exports) and the make-extra corpus; every one of their 75 blueprints validates
 * (test/unit/openapi-blueprint.test.ts).
 *
 * Contract with the server (docs/api.md "The blueprint schema"): what the engine refuses with a 422
 * (engine/blueprint/parse.ts: a non-object blueprint, `name` not a string, `flow` not an array,
 * `metadata` not an object, a module not an object, a bad `id` or `module`, `routes`, `onerror`,
 * `branches` or `tools` not an array, a route, branch or tool not an object or its `flow` not an
 * array, `filter` not an object, a bad module among the orphans) this schema refuses too, so a blueprint
 * valid here is never refused for its shape. Fields the engine reads leniently (`version`, `mapper`,
 * module `metadata`, scenario settings: a value of another type is ignored) are described with the
 * types Make exports. Every object allows further members: Make adds keys between releases and
 * exports carry authors' own (`_public_note`); the engine ignores unknown keys.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (name: string) => ({ oneOf: [ref(name), { type: 'null' }] });
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const open = { type: 'object', additionalProperties: true } as const;

/** The blueprint schemas, spread into `components.schemas` by components.ts. */
export const BLUEPRINT_SCHEMAS = {
  Blueprint: {
    type: 'object',
    description:
      'A Make.com scenario blueprint as the Make UI exports it (Scenario → Export blueprint), old Integromat exports included. Limits beyond this schema: at most 5000 modules, routes and error handlers nested at most 64 deep, module ids unique, JSON nested at most 512 deep (a 422 otherwise).',
    required: ['flow'],
    additionalProperties: true,
    properties: {
      name: { type: ['string', 'null'], description: 'Scenario name; `Untitled scenario` when empty or absent' },
      flow: ref('BlueprintFlow'),
      metadata: {
        ...nullable('BlueprintMetadata'),
        description: 'Scenario settings and canvas state',
      },
      io: ref('BlueprintIo'),
    },
  },
  BlueprintFlow: {
    type: 'array',
    description: 'A route: modules in execution order (the first module of the top-level flow is the trigger)',
    items: ref('BlueprintModule'),
  },
  BlueprintModule: {
    type: 'object',
    description:
      'One module. Routers (`builtin:BasicRouter`) carry `routes`, if/else modules (`builtin:BasicIfElse`) `branches`, AI agents (`ai-local-agent:RunLocalAIAgent`) `tools`; any module may carry an error-handler route in `onerror`.',
    required: ['module'],
    additionalProperties: true,
    properties: {
      id: {
        description:
          'Unique within the blueprint (not ordered); `{{N.field}}` expressions reference module N. `null` for an empty canvas slot (`placeholder:Placeholder`); a string of digits is read as the number.',
        anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d{1,15}$' }, { type: 'null' }],
      },
      module: {
        type: 'string',
        maxLength: 256,
        pattern: '^[^\\s:]+:\\S+$',
        description:
          '`app:Action` (`google-sheets:addRow`, `builtin:BasicRouter`); custom apps `app#<name>-<id>:<action>`',
      },
      version: { type: ['integer', 'null'], description: 'Version of the app module (1 to 7 in exports)' },
      parameters: {
        type: ['object', 'null'],
        additionalProperties: true,
        description:
          'Static settings chosen at design time: the connection `__IMTCONN__`, hook `__IMTHOOK__` / `hook`, `datastore`, keychain `auth`, toggles such as `handleErrors`; `null` when unconfigured',
      },
      mapper: {
        type: ['object', 'null'],
        additionalProperties: true,
        description:
          'Runtime inputs; strings may embed `{{moduleId.field}}` expressions. HTTP modules: `url`, `method`, `headers[]`, `qs[]`, `bodyType`, `data`, ...; `null` on routers',
      },
      filter: {
        ...nullable('BlueprintFilter'),
        description: 'Gate before this module; on the first module of a router route it is the route condition',
      },
      metadata: ref('BlueprintModuleMetadata'),
      routes: {
        type: 'array',
        items: ref('BlueprintRoute'),
        description: 'Router routes (on `builtin:BasicRouter`), each with its own flow',
      },
      onerror: {
        ...ref('BlueprintFlow'),
        description:
          'Error-handler route of this module: ordinary modules, ending in a directive (`builtin:Ignore`, `builtin:Resume`, `builtin:Commit`, `builtin:Rollback`, `builtin:Break`)',
      },
      branches: {
        type: 'array',
        items: ref('BlueprintBranch'),
        description:
          'If/else branches (on `builtin:BasicIfElse`): the first whose condition passes runs, else the `else` branch; a `builtin:BasicMerge` module after the if/else rejoins them',
      },
      tools: {
        type: 'array',
        items: ref('BlueprintTool'),
        description: 'Tools of an AI agent (`ai-local-agent:RunLocalAIAgent`), each a flow the agent may run',
      },
    },
  },
  BlueprintBranch: {
    type: 'object',
    description: 'One if/else branch',
    additionalProperties: true,
    properties: {
      flow: ref('BlueprintFlow'),
      label: str,
      type: { type: 'string', description: '`condition` or `else`' },
      conditions: {
        type: 'array',
        description: "The condition, as a filter's: `[[c1 AND c2] OR [c3]]`; absent on the `else` branch",
        items: { type: 'array', items: ref('BlueprintCondition') },
      },
      merge: { ...bool, description: 'The branch rejoins at the Merge module after the if/else' },
      disabled: { ...bool, description: 'A branch switched off in the UI' },
    },
  },
  BlueprintTool: {
    type: 'object',
    description: 'One tool of an AI agent: the modules it runs when the agent calls it',
    additionalProperties: true,
    properties: {
      flow: ref('BlueprintFlow'),
      name: { type: 'string', description: 'Tool name the model sees' },
      description: { type: 'string', description: 'What the tool does, as the model is told' },
    },
  },
  BlueprintRoute: {
    type: 'object',
    description: 'One router route',
    required: ['flow'],
    additionalProperties: true,
    properties: { flow: ref('BlueprintFlow'), disabled: { ...bool, description: 'A route switched off in the UI' } },
  },
  BlueprintFilter: {
    type: 'object',
    description: 'A filter: OR of AND-groups of conditions',
    additionalProperties: true,
    properties: {
      name: { type: 'string', description: 'Label shown on the canvas' },
      conditions: {
        type: 'array',
        description: '`[[c1 AND c2] OR [c3]]`; empty for a filter with a name only',
        items: { type: 'array', items: ref('BlueprintCondition') },
      },
    },
  },
  BlueprintCondition: {
    type: 'object',
    required: ['a', 'o'],
    additionalProperties: true,
    properties: {
      a: { type: 'string', description: 'Left operand (usually an expression such as `{{1.id}}`)' },
      o: { type: 'string', description: 'Operator: `exist`, `text:equal`, `text:contain:ci`, `number:greater`, ...' },
      b: { type: 'string', description: 'Right operand; absent for unary operators (`exist`, `notexist`)' },
    },
  },
  BlueprintModuleMetadata: {
    type: 'object',
    description:
      'Canvas and UI state of a module. `restore` and `expect` mark a genuine export (hand-written blueprints lack them).',
    additionalProperties: true,
    properties: {
      designer: {
        type: 'object',
        additionalProperties: true,
        properties: {
          x: { type: 'number' },
          y: { type: 'number' },
          name: { type: 'string', description: 'Custom label' },
          messages: { type: 'array' },
        },
      },
      restore: {
        ...open,
        description:
          'UI state of the fields: `{ parameters: { __IMTCONN__: { label, data } }, expect: {...} }` (the connection label often names the account); old Integromat exports hold field labels directly',
      },
      parameters: { type: 'array', items: ref('BlueprintField'), description: 'Descriptions of `parameters`' },
      expect: { type: 'array', items: ref('BlueprintField'), description: 'Descriptions of `mapper` fields' },
      interface: { type: 'array', items: ref('BlueprintField'), description: "The module's output bundle" },
      advanced: bool,
    },
  },
  BlueprintField: {
    type: 'object',
    description:
      'A field description: `{ name, type, label, required }`; `type` such as `text`, `boolean`, `account:<app>`, `hook:<app>`, `keychain:<app>`, `datastore`, `udt`',
    additionalProperties: true,
    properties: {
      name: str,
      type: str,
      label: { type: ['string', 'null'] },
      required: bool,
      multiple: bool,
      help: str,
      spec: {
        type: ['array', 'object'],
        additionalProperties: true,
        description: 'Nested fields of a collection or array',
      },
    },
  },
  BlueprintMetadata: {
    type: 'object',
    additionalProperties: true,
    properties: {
      instant: {
        type: ['boolean', 'null'],
        description:
          'True when the first module is an instant trigger (webhook, mailhook, app instant trigger); absent in old Integromat exports. The schedule itself is not in a blueprint.',
      },
      version: { type: 'integer', description: 'Always 1' },
      scenario: ref('BlueprintScenarioSettings'),
      designer: {
        type: 'object',
        additionalProperties: true,
        properties: {
          orphans: {
            type: 'array',
            items: { anyOf: [ref('BlueprintFlow'), ref('BlueprintModule')] },
            description:
              "Modules left on the canvas, not connected to the flow (Make never runs them): chains of modules. Their ids are unique with the flow's.",
          },
          notes: { type: 'array', items: ref('BlueprintNote') },
        },
      },
      zone: { type: ['string', 'null'], description: 'Make zone, e.g. `eu2.make.com`, `us1.make.com`' },
      notes: { type: 'array', items: ref('BlueprintNote'), description: 'Canvas notes' },
    },
  },
  BlueprintScenarioSettings: {
    type: 'object',
    description: 'Scenario settings (Make UI: Scenario settings). Old Integromat exports lack some flags.',
    additionalProperties: true,
    properties: {
      roundtrips: { type: 'integer', minimum: 0, description: 'Maximum cycles per run' },
      maxErrors: { type: 'integer', minimum: 0, description: 'Consecutive errors before the scenario is deactivated' },
      autoCommit: { ...bool, description: 'Commit each operation at once' },
      autoCommitTriggerLast: { ...bool, description: 'Commit the trigger last' },
      sequential: { ...bool, description: 'Process executions one at a time, in order' },
      slots: { type: ['integer', 'null'], description: 'Concurrency slots; null: the default' },
      confidential: { ...bool, description: 'Keep no execution data or logs' },
      dataloss: {
        ...bool,
        description: '"Enable data loss": drop an incomplete execution that cannot be stored instead of stopping',
      },
      dlq: { ...bool, description: '"Allow storing of incomplete executions"' },
      freshVariables: { ...bool, description: 'Reset variables each cycle' },
    },
  },
  BlueprintNote: {
    type: 'object',
    description: 'A canvas note',
    additionalProperties: true,
    properties: {
      moduleIds: { type: 'array', items: { type: ['integer', 'string'] } },
      content: { type: 'string', description: 'HTML' },
      isFilterNote: bool,
    },
  },
  BlueprintIo: {
    type: 'object',
    description: 'Scenario inputs and outputs (scenarios run on demand with inputs or as subscenarios)',
    additionalProperties: true,
    properties: {
      input_spec: { type: 'array', items: ref('BlueprintField') },
      output_spec: { type: 'array', items: ref('BlueprintField') },
    },
  },
} satisfies Record<string, unknown>;
