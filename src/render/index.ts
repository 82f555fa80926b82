/** @module render: the scenario drawn as a picture (issue 18) and our Markdown as safe HTML (issue 30); imports the engine, never imported by it (re-exports only). */
export { renderScenarioSvg } from './svg.js';
export type { RenderOptions } from './svg.js';
export { moduleMarks } from './marks.js';
export type { ModuleMark, RenderViolation } from './marks.js';
export { layoutScenario, MODULE_RADIUS, MIN_CENTRE_DISTANCE } from './layout.js';
export type { Point, ScenarioLayout } from './layout.js';
export { escapeXml } from './escape.js';
export { markdownInlineHtml, markdownToHtml } from './markdown.js';
export type { MarkdownOptions } from './markdown.js';
