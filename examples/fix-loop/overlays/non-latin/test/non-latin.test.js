import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('transliterates Cyrillic titles to ASCII', () => {
  assert.equal(slugify('Привет, мир'), 'privet-mir');
});
