/**
 * @module render/layout: where each module of a scenario sits in the picture. The export's canvas
 * positions (Make's `metadata.designer` x/y) when they are usable, else a computed layout drawn the
 * way Make draws a scenario: flow left to right, a router's routes and an if/else's branches fanned
 * out one row each (the Merge module after the branches), an error-handler route and an agent's tools
 * below their module, and the orphans (modules not connected to the flow) below everything.
 */
import type { ModuleNode, ScenarioGraph } from '../engine/index.js';

/** Radius of a module circle, in SVG user units (px at scale 1). */
export const MODULE_RADIUS = 26;
/** Computed layout grid: distance between neighbouring columns and rows (room for two label lines and a filter tag). */
export const CELL = { x: 190, y: 150 } as const;
/** Canvas positions are scaled by this (Make places neighbours 300 units apart: 180 px here). */
export const CANVAS_SCALE = 0.6;
/** Least distance between two module centres after scaling: two radii and a gap, so circles never overlap. */
export const MIN_CENTRE_DISTANCE = 2 * MODULE_RADIUS + 16;
/**
 * Canvas positions closer than this (Make units) mean an export whose positions are stacked or
 * meaningless (tests, generated blueprints: every module at 0,0): the layout is computed instead.
 * The corpus's closest neighbours are 150 apart.
 */
export const MIN_CANVAS_GAP = 100;

/** A module centre, in SVG user units. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** The layout of one scenario. */
export interface ScenarioLayout {
  /** `canvas` when the export's positions are used, `computed` otherwise. */
  readonly source: 'canvas' | 'computed';
  /** Centre of every module, by id, in `graph.modules` order; the smallest x and y are 0. */
  readonly centres: ReadonlyMap<string, Point>;
}

/**
 * Lays out `graph`. With `mode` `auto` (default) the canvas positions are used, scaled by
 * `CANVAS_SCALE` (more when needed for `MIN_CENTRE_DISTANCE`), when every module has one and no two
 * are closer than `MIN_CANVAS_GAP`; otherwise, or with `computed`, the layout is computed. Either way
 * no two centres are closer than `MIN_CENTRE_DISTANCE`. Pure and deterministic.
 */
export function layoutScenario(graph: ScenarioGraph, mode: 'auto' | 'computed' = 'auto'): ScenarioLayout {
  if (mode === 'auto') {
    const canvas = canvasLayout(graph.modules);
    if (canvas) return { source: 'canvas', centres: canvas };
  }
  const block = layoutFlow(graph, graph.topLevelIds);
  for (const chain of graph.orphanIds) if (chain.length > 0) attach(block, layoutFlow(graph, chain), 0, 1);
  const centres = new Map<string, Point>();
  for (const m of graph.modules) {
    const cell = block.cells.get(m.id);
    if (cell) centres.set(m.id, { x: cell[0] * CELL.x, y: cell[1] * CELL.y });
  }
  return { source: 'computed', centres: normalise(centres) };
}

function canvasLayout(modules: readonly ModuleNode[]): Map<string, Point> | null {
  if (modules.length === 0 || modules.some((m) => m.position === null)) return null;
  const closest = closestDistance(modules.map((m) => m.position!));
  if (closest < MIN_CANVAS_GAP) return null;
  const scale = Math.max(CANVAS_SCALE, MIN_CENTRE_DISTANCE / closest);
  return normalise(new Map(modules.map((m) => [m.id, { x: m.position!.x * scale, y: m.position!.y * scale }])));
}

/** Smallest distance between two of `points` (Infinity for fewer than two): a sweep over x, not all pairs. */
function closestDistance(points: readonly Point[]): number {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  let best = Infinity;
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length && sorted[j]!.x - sorted[i]!.x < best; j++)
      best = Math.min(best, Math.hypot(sorted[j]!.x - sorted[i]!.x, sorted[j]!.y - sorted[i]!.y));
  return best;
}

function normalise(centres: Map<string, Point>): Map<string, Point> {
  let minX = Infinity;
  let minY = Infinity;
  for (const p of centres.values()) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
  }
  for (const [id, p] of centres) centres.set(id, { x: p.x - minX, y: p.y - minY });
  return centres;
}

/**
 * Grid cells (column, row) of a flow and everything hanging off it, relative to its first module at
 * (0, 0), with the top and bottom row used in each column: a child block is placed below the parent's
 * bottom in every column they share (the contour rule of tidy tree drawing), so no two cells collide.
 */
interface Block {
  readonly cells: Map<string, [number, number]>;
  readonly top: Map<number, number>;
  readonly bottom: Map<number, number>;
  /** Last column used on row 0 (the flow's own row). */
  mainEnd: number;
}

function put(block: Block, id: string, col: number, row: number): void {
  block.cells.set(id, [col, row]);
  block.top.set(col, Math.min(block.top.get(col) ?? row, row));
  block.bottom.set(col, Math.max(block.bottom.get(col) ?? row, row));
  if (row === 0) block.mainEnd = Math.max(block.mainEnd, col);
}

/** The smallest row offset ≥ `minRow` at which `child`, shifted `dc` columns, lies below `parent` in every shared column. */
function rowBelow(parent: Block, child: Block, dc: number, minRow: number): number {
  let row = minRow;
  for (const [col, top] of child.top) {
    const bottom = parent.bottom.get(col + dc);
    if (bottom !== undefined) row = Math.max(row, bottom + 1 - top);
  }
  return row;
}

function attach(parent: Block, child: Block, dc: number, minRow: number): number {
  const dr = rowBelow(parent, child, dc, minRow);
  for (const [id, [c, r]] of child.cells) put(parent, id, c + dc, r + dr);
  return dr;
}

function layoutFlow(graph: ScenarioGraph, ids: readonly string[]): Block {
  const block: Block = { cells: new Map(), top: new Map(), bottom: new Map(), mainEnd: -1 };
  const onRow: { node: ModuleNode; col: number }[] = [];
  for (const id of ids) {
    const node = graph.byId.get(id);
    if (!node) continue;
    const col = block.mainEnd + 1;
    put(block, id, col, 0);
    onRow.push({ node, col });
    // Routes and branches fan out to the right, the first on the module's row, each next one below the previous.
    let minRow = 0;
    for (const flow of [...node.routes, ...node.branches]) {
      if (flow.moduleIds.length === 0) continue;
      minRow = attach(block, layoutFlow(graph, flow.moduleIds), col + 1, minRow) + 1;
    }
    // What follows an if/else (its Merge module) comes after the longest branch.
    if (node.branches.length > 0) block.mainEnd = Math.max(block.mainEnd, ...block.top.keys());
  }
  // Error handlers and agent tools last, below their module and below whatever the flow's routes drew there.
  for (const { node, col } of onRow) {
    if (node.errorHandlerIds.length > 0) attach(block, layoutFlow(graph, node.errorHandlerIds), col, 1);
    for (const tool of node.agent?.tools ?? [])
      if (tool.moduleIds.length > 0) attach(block, layoutFlow(graph, tool.moduleIds), col, 1);
  }
  return block;
}
