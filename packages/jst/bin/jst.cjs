#!/usr/bin/env node
'use strict';
require('./cached-require.cjs').cachedRequire(require('node:path').join(__dirname, '..', 'dist', 'jst.cjs'));
