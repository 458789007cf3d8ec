// Turns a title into a URL slug: lowercase ASCII letters and digits joined by single dashes.
export function slugify(title) {
  // Titles come from anywhere: a number, a form field's null.
  const text = String(title);
  // Case is folded first, so the separator pattern below only has to know lowercase letters.
  const lower = text.toLowerCase();
  // Every run of anything but a letter or a digit becomes one dash.
  const dashed = lower.replace(/[^a-z0-9]+/g, '-');
  // The slug, as it goes into a URL.
  return dashed;
}
