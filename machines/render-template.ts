// Fill `{{name}}` placeholders in a canon template (pure; unknown placeholders are left as is).

/** Replace each `{{key}}` with its value. */
export function renderTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g, (whole, key: string) => {
    const value = values[key];
    return value === undefined ? whole : String(value);
  });
}
