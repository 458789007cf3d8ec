import type { ParseResult } from '../../errors.js';
import { boundMessage, MAX_FAILURE_MESSAGE_CHARS, type TestFailure, type TestReport } from './test-report.js';
import { decodeEntities, scanXml, type XmlToken } from './xml-scanner.js';

// A test case being read: its name, what its children said, and the depth of its element.
interface OpenCase {
  readonly name: string;
  readonly depth: number;
  failed: boolean;
  skipped: boolean;
  message: string | null;
}

// Text of a <failure> or <error> without a message attribute, collected up to the message bound.
interface Collecting {
  readonly depth: number;
  text: string;
}

const MAX_SUITES_IN_NAME = 8;
const ROOTS = new Set(['testsuites', 'testsuite']);
const FAILURES = new Set(['failure', 'error']);

// Reads a JUnit document token by token; `visit` returns a message to stop on a problem.
class JUnitReading {
  private readonly stack: { readonly name: string; readonly named: boolean }[] = [];
  // The names of the open suites that have one, innermost last.
  private readonly suites: string[] = [];
  private rootSeen = false;
  private current: OpenCase | null = null;
  private collecting: Collecting | null = null;
  private readonly counts = { failed: 0, passed: 0, skipped: 0, total: 0 };
  private readonly failures: TestFailure[] = [];

  visit(token: XmlToken): string | undefined {
    if (token.kind === 'text') return this.text(token.raw, token.cdata);
    if (token.kind === 'close') return this.close(token.name);
    if (this.stack.length === 0) {
      if (this.rootSeen) return `a second root element <${token.name}>`;
      if (!ROOTS.has(token.name)) return `the root element is <${token.name}>, not <testsuites> or <testsuite>`;
      this.rootSeen = true;
    }
    const suite = token.name === 'testsuite' ? (token.attributes.get('name') ?? '') : '';
    this.stack.push({ name: token.name, named: suite !== '' });
    if (suite !== '') this.suites.push(suite);
    const refused = this.open(token.name, token.attributes);
    if (refused === undefined && token.selfClosing) return this.close(token.name);
    return refused;
  }

  private open(name: string, attributes: ReadonlyMap<string, string>): string | undefined {
    const depth = this.stack.length;
    if (name === 'testcase') {
      if (this.current !== null) return 'a <testcase> inside another <testcase>';
      const title = attributes.get('name') ?? '(unnamed test)';
      this.current = { name: this.label(title), depth, failed: false, skipped: false, message: null };
    } else if (FAILURES.has(name)) {
      // Outside a test case, a failure or error is the suite's own (a file that failed to load): one failed test.
      this.current ??= {
        name: this.label(`(${name} of the suite)`),
        depth,
        failed: false,
        skipped: false,
        message: null,
      };
      this.current.failed = true;
      const message = attributes.get('message') ?? '';
      if (message.trim() !== '') this.current.message ??= message;
      else if (this.current.message === null && this.collecting === null) this.collecting = { depth, text: '' };
    } else if (name === 'skipped' && this.current !== null) this.current.skipped = true;
    return undefined;
  }

  private close(name: string): string | undefined {
    const top = this.stack.at(-1);
    if (top === undefined) return `</${name}> closes no open element`;
    if (top.name !== name) return `</${name}> where </${top.name}> was expected`;
    const depth = this.stack.length;
    this.stack.pop();
    if (top.named) this.suites.pop();
    if (this.collecting !== null && this.collecting.depth === depth) {
      if (this.current !== null) this.current.message ??= this.collecting.text;
      this.collecting = null;
    }
    if (this.current !== null && this.current.depth === depth) this.finish(this.current);
    return undefined;
  }

  private text(raw: string, cdata: boolean): string | undefined {
    if (this.stack.length === 0) return raw.trim() === '' ? undefined : 'text outside the root element';
    const collecting = this.collecting;
    if (collecting === null) return undefined;
    const room = MAX_FAILURE_MESSAGE_CHARS + 1 - collecting.text.length;
    // Only the first characters are kept, so only they are decoded: the cost stays bounded per failure.
    if (room > 0)
      collecting.text += cdata ? raw.slice(0, room) : decodeEntities(raw.slice(0, room * 10)).slice(0, room);
    return undefined;
  }

  private finish(done: OpenCase): void {
    this.current = null;
    this.counts.total += 1;
    if (done.failed) {
      this.counts.failed += 1;
      this.failures.push({ name: done.name, message: boundMessage(done.message ?? '') });
    } else if (done.skipped) this.counts.skipped += 1;
    else this.counts.passed += 1;
  }

  // A test's name with the names of the innermost suites around it
  // (a bounded number, so naming costs no more per test as nesting grows).
  private label(title: string): string {
    const shown = this.suites.slice(-MAX_SUITES_IN_NAME);
    const cut = this.suites.length > shown.length ? ['…'] : [];
    return [...cut, ...shown, title].join(' > ');
  }

  end(): ParseResult<TestReport> | null {
    const open = this.stack.at(-1);
    if (open !== undefined) return failure(`the report ends inside <${open.name}> (is it truncated?)`);
    if (!this.rootSeen) return failure('no <testsuites> or <testsuite> element: this is not a JUnit XML report');
    return { success: true, data: { ...this.counts, failures: this.failures }, issues: [] };
  }
}

// A failed read with one issue.
function failure(message: string): ParseResult<TestReport> {
  return {
    success: false,
    issues: [{ code: 'invalid_junit', path: [], message: `Not a readable JUnit report: ${message}` }],
  };
}

/**
 * Reads a JUnit XML test report (what `node --test --test-reporter=junit`,
 * Vitest, Jest, pytest, Maven and most runners write): every `<testcase>` at
 * any depth of `<testsuites>`/`<testsuite>` counts once, as failed when it
 * holds a `<failure>` or `<error>`, else skipped when it holds a `<skipped>`,
 * else passed; a `<failure>` or `<error>` directly in a suite (a file that
 * failed to load) counts as one failed test. A failure's name is its suites'
 * names (the innermost eight) and its own, joined by ` > `; its message is the `message` attribute,
 * else the element's text. Suite attributes (`tests=`, `failures=`) are not
 * trusted. A document that is not well-formed in this subset, is cut off, or
 * has another root fails with one `invalid_junit` issue naming the problem
 * and where. Time linear in the text; never throws. Pure.
 *
 * @example
 * ```ts
 * readJUnitReport('<testsuite name="s"><testcase name="a"/><testcase name="b"><failure message="boom"/></testcase></testsuite>');
 * // { success: true, data: { failed: 1, passed: 1, skipped: 0, total: 2, failures: [{ name: 's > b', message: 'boom' }] }, issues: [] }
 * ```
 * @public
 */
export function readJUnitReport(text: string): ParseResult<TestReport> {
  if (typeof text !== 'string') return failure(`expected the report's text, got ${typeof text}`);
  const reading = new JUnitReading();
  const problem = scanXml(text, (token) => reading.visit(token));
  if (problem !== null) return failure(problem);
  return reading.end() ?? failure('nothing was read');
}
