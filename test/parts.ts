// The product's parts, the folders a layering, export or link check walks: one list for every such test.
export const PARTS = [
  'library',
  'model',
  'contract',
  'simulator',
  'target-server',
  'loadgen',
  'orchestrator',
  'analysis',
  'runtime',
  'probe',
];
