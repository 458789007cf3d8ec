// Rewrites each oneOf of objects told apart by one required const property (a criterion's "kind") as an if/then per
// value, so an editor reports the errors of the one branch a value names (a misspelt key: two errors, one naming it)
// instead of every branch's.

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

// The const a branch gives `key`, when it requires it.
function constOf(branch: unknown, key: string): unknown {
  if (!isNode(branch) || !Array.isArray(branch.required) || !branch.required.includes(key)) return undefined;
  const property = isNode(branch.properties) ? branch.properties[key] : undefined;
  return isNode(property) ? property.const : undefined;
}

// The property every branch requires with its own distinct const value, or undefined when there is none.
function discriminatorOf(branches: unknown): string | undefined {
  if (!Array.isArray(branches) || branches.length < 2 || !isNode(branches[0])) return undefined;
  const candidates = Object.keys(isNode(branches[0].properties) ? branches[0].properties : {});
  return candidates.find((key) => {
    const values = branches.map((branch) => constOf(branch, key));
    return values.every((value) => typeof value === 'string') && new Set(values).size === values.length;
  });
}

/**
 * The schema with every discriminated oneOf turned into `allOf` of `if: { <key>: const } then: <branch>`, the key
 * itself checked once against the enum of its values.
 */
export function discriminate(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(discriminate);
  if (!isNode(schema)) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([name, value]) => [name, discriminate(value)]));
  const key = discriminatorOf(node.oneOf);
  if (key === undefined) return node;
  const { oneOf, ...rest } = node;
  const branches = oneOf as Node[];
  const values = branches.map((branch) => constOf(branch, key));
  return {
    ...rest,
    type: 'object',
    required: [key],
    properties: { [key]: { type: 'string', enum: values } },
    allOf: branches.map((branch, index) => ({
      if: { properties: { [key]: { const: values[index] } }, required: [key] },
      // biome-ignore lint/suspicious/noThenProperty: "then" is the JSON Schema keyword.
      then: branch,
    })),
  };
}
