#!/usr/bin/env node
import '../dist/jst.js';
