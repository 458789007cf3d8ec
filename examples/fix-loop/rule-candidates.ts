// A deterministic candidate source for the fix loop: a table of rules, each recognising a symptom in the failure
// output of the test run (the spec reporter's lines or the JUnit report's) and proposing fixes as unified diffs.
// The table is written for the slugify workspace under ./template; the MCP server example reuses it.

import type { FixCandidate } from 'goal-loop/contracts';
import type { CandidateSource } from 'goal-loop/fix-loop';

/** One rule: a symptom, the regular expression that finds it in a failure output, and the fixes it proposes. */
export interface FixRule {
  readonly symptom: string;
  readonly when: RegExp;
  readonly candidates: readonly FixCandidate[];
}

// A failing test by its name: the spec reporter marks it `✖ name`, the fix loop heads the failure output with
// `✗ name` for each failure of the JUnit report, and the JUnit XML gives its testcase a failure.
const failing = (name: string): RegExp => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`[✖✗] ${escaped}|<testcase name="${escaped}"[^>]*\\sfailure=`);
};

/**
 * The slugify workspace's rules. The first candidate of the first rule is plausible and wrong on purpose: it
 * trims whitespace, so it applies cleanly and ranks first, but the slug still ends with a dash; the loop records
 * no progress, reverts it, remembers it as tried and moves on to the next candidate. Each diff changes one line and carries
 * one line of context on each side that no other diff touches, so the diffs apply in any order.
 */
export const slugifyRules: readonly FixRule[] = [
  {
    symptom: 'a slug starts or ends with a dash',
    when: /\+ '(?:-[^'\n]*|[^'\n]*-)'/,
    candidates: [
      {
        description: 'Trim whitespace around the title before slugifying',
        confidence: 0.9,
        mutationType: 'auto',
        patch: `diff --git a/src/slugify.js b/src/slugify.js
--- a/src/slugify.js
+++ b/src/slugify.js
@@ -3,3 +3,3 @@ export function slugify(title) {
   // Titles come from anywhere: a number, a form field's null.
-  const text = String(title);
+  const text = String(title).trim();
   // Case is folded first, so the separator pattern below only has to know lowercase letters.
`,
      },
      {
        description: 'Drop the dashes left at both ends of the slug',
        confidence: 0.7,
        mutationType: 'auto',
        patch: `diff --git a/src/slugify.js b/src/slugify.js
--- a/src/slugify.js
+++ b/src/slugify.js
@@ -9,3 +9,3 @@ export function slugify(title) {
   // The slug, as it goes into a URL.
-  return dashed;
+  return dashed.replace(/^-+|-+$/g, '');
 }
`,
      },
    ],
  },
  {
    symptom: 'accented letters are cut out of the slug',
    when: failing('folds accented letters to their base letter'),
    candidates: [
      {
        description: 'Fold accented letters to their base letter (NFKD, then drop the combining marks)',
        confidence: 0.8,
        mutationType: 'auto',
        patch: String.raw`diff --git a/src/slugify.js b/src/slugify.js
--- a/src/slugify.js
+++ b/src/slugify.js
@@ -5,3 +5,3 @@ export function slugify(title) {
   // Case is folded first, so the separator pattern below only has to know lowercase letters.
-  const lower = text.toLowerCase();
+  const lower = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
   // Every run of anything but a letter or a digit becomes one dash.
`,
      },
    ],
  },
  {
    symptom: 'a title in a non-Latin script has no ASCII slug',
    when: failing('transliterates Cyrillic titles to ASCII'),
    candidates: [
      {
        description:
          'Transliterate non-Latin scripts to ASCII with a transliteration table (a new dependency or a table kept by hand: the maintainers choose)',
        confidence: 0.6,
        mutationType: 'manual',
      },
      {
        description: 'Keep letters of every script in slugs (Unicode letter and number classes)',
        confidence: 0.4,
        mutationType: 'auto',
        patch: String.raw`diff --git a/src/slugify.js b/src/slugify.js
--- a/src/slugify.js
+++ b/src/slugify.js
@@ -7,3 +7,3 @@ export function slugify(title) {
   // Every run of anything but a letter or a digit becomes one dash.
-  const dashed = lower.replace(/[^a-z0-9]+/g, '-');
+  const dashed = lower.replace(/[^\p{L}\p{N}]+/gu, '-');
   // The slug, as it goes into a URL.
`,
      },
    ],
  },
];

/**
 * A candidate source over a rule table: the candidates of every rule whose symptom is in the failure output,
 * once each, in table order (the fix loop ranks them by confidence and skips the ones already tried).
 */
export function createRuleCandidateSource(rules: readonly FixRule[] = slugifyRules): CandidateSource {
  return {
    async propose({ failureOutput }) {
      const seen = new Set<string>();
      const proposed: FixCandidate[] = [];
      for (const rule of rules) {
        if (!rule.when.test(failureOutput)) continue;
        for (const candidate of rule.candidates) {
          if (seen.has(candidate.description)) continue;
          seen.add(candidate.description);
          proposed.push(candidate);
        }
      }
      return proposed;
    },
  };
}
