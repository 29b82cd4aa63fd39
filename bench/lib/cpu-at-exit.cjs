// Preloaded (`node -r`) by bench/cli-startup.mjs: at exit, appends this process's CPU time (user +
// system, µs, from its start) to the file named by BENCH_CPU_FILE. On a loaded machine a process's
// CPU time moves far less than its wall time.
'use strict';
const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').appendFileSync(file, `${user + system}\n`);
  });
}
