import { describe, expect, it } from 'vitest';
import { diffGitNames, readName } from '../../../src/fix-loop/core/header-names.js';

describe('header names', () => {
  it('reads a C-quoted name as git writes it: octal bytes of UTF-8, the usual escapes', () => {
    expect(readName('"a/caf\\303\\251.txt"')).toBe('a/café.txt');
    expect(readName('"a/tab\\there \\"q\\" \\\\"')).toBe('a/tab\there "q" \\');
    expect(readName('a/plain name.txt')).toBe('a/plain name.txt');
  });

  it('refuses a malformed or empty quoted name', () => {
    for (const bad of ['"a/unterminated', '"a/bad\\q"', '""']) expect(readName(bad), bad).toBeNull();
  });

  it('splits a `diff --git` line where both names agree once their first folder is dropped', () => {
    expect(diffGitNames('a/my file.txt b/my file.txt')).toEqual(['a/my file.txt', 'b/my file.txt']);
    expect(diffGitNames('"a/caf\\303\\251" b/café')).toEqual(['a/café', 'b/café']);
    expect(diffGitNames('a/x "b/\\"y"')).toEqual(['a/x', 'b/"y']);
    // A rename: no space where the names agree, so every word is taken as a name, to be safe.
    expect(diffGitNames('a/old name b/new name')).toEqual(['a/old', 'name', 'b/new', 'name']);
    expect(diffGitNames('"a/broken')).toBeNull();
  });
});
