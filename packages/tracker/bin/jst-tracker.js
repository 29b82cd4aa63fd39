#!/usr/bin/env node
// In a clone: dist/cli.js, the tsc output that `tsc -b` keeps current (the tests build and run it).
// From the package tarball, which ships no dist/cli.js: dist/jst-tracker.js, the bundle (build.mjs).
import { existsSync } from 'node:fs';

await import(existsSync(new URL('../dist/cli.js', import.meta.url)) ? '../dist/cli.js' : '../dist/jst-tracker.js');
