#!/usr/bin/env node
'use strict';
require('../dist/jst.cjs');
