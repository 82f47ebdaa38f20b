import type { ReferenceModel } from '../model';
import { connCountsModel } from './connCounts';
import { leastConnectionsModel } from './leastConnections';

/** The engine's library of protocols. A pack names one of these by id. */
const models = new Map<string, ReferenceModel<any>>([
  [leastConnectionsModel.id, leastConnectionsModel],
  [connCountsModel.id, connCountsModel],
]);

export function registerModel(model: ReferenceModel<any>): void {
  models.set(model.id, model);
}

export function findModel(id: string): ReferenceModel<unknown> | undefined {
  return models.get(id);
}

export function modelIds(): string[] {
  return [...models.keys()].sort();
}
