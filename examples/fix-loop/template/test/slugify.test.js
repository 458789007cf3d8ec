import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('lowercases words and joins them with dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('collapses runs of separators into one dash', () => {
  assert.equal(slugify('fix -- loop __ example'), 'fix-loop-example');
});

test('trims leading and trailing separators', () => {
  assert.equal(slugify('  Hello, World!  '), 'hello-world');
});

test('folds accented letters to their base letter', () => {
  assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
});
