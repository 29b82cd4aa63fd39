import { describe, it } from 'vitest';
import { storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { trackerWithFixture, type Fixture } from './fixture.js';
import { ROUTES, writeProperty } from './routes.js';
import { assertProperty, RUNS, timeoutFor } from './support.js';

/**
 * Issue 4 "Hostile input": property-based (fast-check) bodies for the write routes of spec §4:
 * arbitrary JSON and valid bodies mutated (fields dropped, replaced, retyped, blown up to huge
 * arrays and strings, nested thousands deep, unknown and __proto__ fields added), sent by every
 * kind of caller on both address forms. JST_FC_RUNS sets the cases per property.
 */
describe.each(await storeKinds())('spec §7 rule 4, hostile input: bodies of POST /issue, PUT and DELETE /issue/{key} (%s)', (kind) => {
  let t: TestTracker;
  let fx: Fixture;
  trackerWithFixture(kind, (tracker, fixture) => {
    t = tracker;
    fx = fixture;
  });

  for (const name of ['create', 'edit', 'delete'] as const) {
    const route = ROUTES[name]!;
    it(
      `${route.name}: arbitrary and mutated JSON bodies never get a 5xx, answer in time, 4xx bodies are ErrorCollections, and a refused write changes nothing`,
      async () => {
        await assertProperty(
          writeProperty(
            () => t,
            () => fx,
            route,
          ),
        );
      },
      timeoutFor(RUNS, 400),
    );
  }
});
