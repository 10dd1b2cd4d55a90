import { after, before, describe } from 'node:test';
import { storeBackends } from '../../support/store-backends.js';
import { concurrencyCases } from './store-cases/concurrency.js';
import { gatewayCases } from './store-cases/gateway.js';
import { inputRoundCases } from './store-cases/input-rounds.js';
import { migrationCases } from './store-cases/migrations.js';
import { postgresFailureCases } from './store-cases/postgres-failures.js';
import { secretCases } from './store-cases/secrets.js';
import { transactionCases } from './store-cases/transactions.js';

// One suite, run on each back end: a plugin's store code must behave the same on both. The
// cases live in store-cases/; PostgreSQL's is skipped (one line) where it is not installed.
for (const backend of storeBackends()) {
  describe(`shared store on ${backend.name}`, { skip: backend.skip }, () => {
    before(() => backend.start());
    after(() => backend.stop());
    migrationCases(backend);
    transactionCases(backend);
    concurrencyCases(backend);
    gatewayCases(backend);
    inputRoundCases(backend);
    secretCases(backend);
    if (backend.name === 'postgres') postgresFailureCases(backend);
  });
}
