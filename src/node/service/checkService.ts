/**
 * What the resident check service keeps between checks, and the checks themselves. It calls the very
 * functions `lesson-companion check` and `simulate` call (checkFile, simulateFile): one check path, whether
 * a check comes from the command line, the editor or grading. What it adds is memory, all of it in this
 * process and none of it on disk:
 * - packs as last loaded, used while every file they were loaded from is the same file (packs/packCache.ts);
 * - models as last transpiled, by content (engine/modelCache.ts);
 * - interpreters as resolved (languages/interpreter.ts) and the sandbox as found (sandbox/sandbox.ts);
 * - passing batches (check/fastPass.ts): a correct program passes on its first run, with no engine;
 * - one engine worker already started for the lesson in use, waiting for its check.
 * The learner's program is never kept: every check runs it afresh, contained.
 */
import * as path from 'node:path';
import type { CheckReport } from '../../core/report/report';
import { beginFinding, checkFile, engineWrap, modelTranspiled } from '../check/checker';
import { batchKey, PassingBatchStore } from '../check/fastPass';
import { simulateFile } from '../check/simulator';
import { simulateWorldFile } from '../check/worldSimulator';
import { isWorldScenario, type WorldScenario } from '../../core/world/worldScenarioSchema';
import { ModelNotHeldError } from '../engine/engineSandbox';
import { startWarmEngine, type WarmEngine } from '../engine/host';
import { WordedError } from '../errors/errors';
import { loadPack, type LoadedPack } from '../packs/packs';
import { quietNodeEnv } from '../run/nodeEnv';
import { sandboxSettingFromEnv, type SandboxSetting } from '../sandbox/sandbox';
import type {
  CheckParams,
  LessonTarget,
  RepairParams,
  ServiceStatus,
  SimulateParams,
  UnderLoadResult,
} from './protocol';
import { repairFile } from '../repair/repair';
import type { RepairResult } from '../../core/repair/result';

export interface CheckServiceOptions {
  /** dist/engine.js: the worker that runs the pack's model. */
  readonly engine: string;
  /** The Node that runs engine workers (in VS Code: its own runtime, with ELECTRON_RUN_AS_NODE). */
  readonly node?: string;
}

/** The settings a check's passing batch depends on, as a check was given them. */
type BatchSettings = { readonly seed?: number; readonly fuzzTranscripts?: number };

const batchSettings = (params: CheckParams): BatchSettings => ({
  ...(params.seed !== undefined ? { seed: params.seed } : {}),
  ...(params.fuzzTranscripts !== undefined ? { fuzzTranscripts: params.fuzzTranscripts } : {}),
});

export class CheckService {
  private readonly batches = new PassingBatchStore();
  /**
   * The worker waiting for the next check, with the pack as loaded when it started: a worker sees the pack
   * folder as it was then (a sandbox binds that folder), so a pack changed or reinstalled since needs a new one.
   */
  private warm: { engine: WarmEngine; setting: SandboxSetting; manifest: LoadedPack['manifest'] } | undefined;
  private checks = 0;
  private enginesStarted = 0;
  /** Set once the service ends: no worker is started after that. */
  private disposed = false;
  private packsSeen = new Set<string>();

  constructor(private readonly options: CheckServiceOptions) {}

  private async pack(target: LessonTarget): Promise<LoadedPack> {
    const pack = await loadPack(path.resolve(target.packDir), target.origin);
    this.packsSeen.add(pack.dir);
    if (!pack.manifest.starters[target.language]) {
      throw new WordedError(
        `lesson "${pack.manifest.id}" has no ${target.language} version (it has ${Object.keys(pack.manifest.starters).join(', ')})`,
      );
    }
    return pack;
  }

  private setting(target: LessonTarget): SandboxSetting {
    return target.sandbox ?? sandboxSettingFromEnv();
  }

  /**
   * A lesson session opened: everything its first check needs, found now, so that the check finds it ready:
   * the worker that will run it has loaded the pack and its model, and the passing batch of a check with the
   * editor's settings is known (answered once it is), so a correct program passes on its first run.
   */
  async prepare(target: LessonTarget): Promise<void> {
    const setting = this.setting(target);
    beginFinding(target.language, target.interpreters ?? {}, setting);
    const pack = await this.pack(target);
    const warm = await this.startWarm(pack, setting, {}, target.trustModel).catch((error: unknown) => {
      // A model no sandbox can hold gets no worker in advance; its check says why.
      if (!(error instanceof ModelNotHeldError)) throw error;
      return undefined;
    });
    await warm?.prepared;
  }

  /**
   * A worker waiting for the next check of `pack` with these settings, loading the pack meanwhile and telling
   * the passing batch of such a check into the store; the one already waiting if it was started for the same.
   */
  private async startWarm(
    pack: LoadedPack,
    setting: SandboxSetting,
    settings: BatchSettings,
    trustModel?: string,
  ): Promise<WarmEngine | undefined> {
    if (this.disposed) return undefined;
    const kept = this.warm;
    if (kept?.engine.waiting && kept.manifest === pack.manifest && kept.setting === setting) return kept.engine;
    this.warm?.engine.dispose();
    this.warm = undefined;
    const wrap = await engineWrap(setting, pack, trustModel);
    const transpiled = await modelTranspiled(pack);
    // Ended meanwhile (the service is shutting down): a worker started now would outlive it.
    if (this.disposed) return undefined;
    const engine = startWarmEngine(
      this.options.engine,
      pack.dir,
      {
        ...wrap,
        permission: true,
        ...(this.options.node ? { node: this.options.node } : {}),
        env: quietNodeEnv(process.env),
      },
      { packDir: pack.dir, origin: pack.origin, transpiled, ...settings },
    );
    this.enginesStarted += 1;
    const key = batchKey(pack, this.options.engine, settings);
    void engine.prepared.then((batch) => {
      if (batch && key) this.batches.set(key, batch);
    });
    this.warm = { engine, setting, manifest: pack.manifest };
    return engine;
  }

  /**
   * The waiting worker, if it was started for this very load of the pack (the kept load is the same object
   * while no file of the pack changed) and these settings; it is then no longer kept. Any other is ended.
   */
  private takeWarm(pack: LoadedPack, setting: SandboxSetting): WarmEngine | undefined {
    const warm = this.warm;
    if (!warm) return undefined;
    this.warm = undefined;
    if (
      warm.engine.waiting &&
      warm.manifest === pack.manifest &&
      warm.setting === setting &&
      warm.engine.packDir === pack.dir
    )
      return warm.engine;
    warm.engine.dispose();
    return undefined;
  }

  async check(params: CheckParams, onPhase: (phase: string) => void, signal: AbortSignal): Promise<CheckReport> {
    const setting = this.setting(params);
    beginFinding(params.language, params.interpreters ?? {}, setting);
    const pack = await this.pack(params);
    this.checks += 1;
    try {
      return await checkFile(pack, params.file, params.language, {
        interpreters: params.interpreters ?? {},
        ...(params.timeLimitMs !== undefined ? { timeLimitMs: params.timeLimitMs } : {}),
        ...(params.seed !== undefined ? { seed: params.seed } : {}),
        ...(params.fuzzTranscripts !== undefined ? { fuzzTranscripts: params.fuzzTranscripts } : {}),
        sandbox: setting,
        ...(params.trustModel !== undefined ? { trustModel: params.trustModel } : {}),
        engine: this.options.engine,
        onPhase,
        signal,
        kept: {
          passingBatches: this.batches,
          warmEngine: () => this.takeWarm(pack, setting),
          transpiledModel: modelTranspiled,
        },
      });
    } finally {
      // The next check of this lesson finds a worker waiting; started after this one, so it takes no CPU from it.
      if (!signal.aborted)
        this.startWarm(pack, setting, batchSettings(params), params.trustModel).catch(() => undefined);
    }
  }

  /** A verified fix for the report's mistakes, run on the batch the check kept (src/node/repair). */
  async repair(params: RepairParams, signal: AbortSignal): Promise<RepairResult> {
    const pack = await this.pack(params);
    const settings = {
      ...(params.seed !== undefined ? { seed: params.seed } : {}),
      ...(params.fuzzTranscripts !== undefined ? { fuzzTranscripts: params.fuzzTranscripts } : {}),
    };
    this.enginesStarted += 1;
    const key = batchKey(pack, this.options.engine, settings);
    const batch = key ? this.batches.get(key) : undefined;
    return repairFile(pack, params.file, params.language, params.report, {
      check: {
        interpreters: params.interpreters ?? {},
        ...(params.timeLimitMs !== undefined ? { timeLimitMs: params.timeLimitMs } : {}),
        ...settings,
        sandbox: this.setting(params),
        engine: this.options.engine,
        signal,
      },
      ...(batch ? { batch } : {}),
    });
  }

  async simulate(params: SimulateParams, signal: AbortSignal): Promise<UnderLoadResult> {
    const pack = await this.pack(params);
    const world = (pack.manifest.scenarios ?? []).find(
      (s): s is WorldScenario => s.id === params.scenario && isWorldScenario(s),
    );
    if (world) {
      const worldOutcome = await simulateWorldFile(pack, world, params.file, params.language, {
        interpreters: params.interpreters ?? {},
        ...(params.mistake !== undefined ? { mistake: params.mistake } : {}),
        ...(params.timeLimitMs !== undefined ? { timeLimitMs: params.timeLimitMs } : {}),
        sandbox: this.setting(params),
        ...(params.trustModel !== undefined ? { trustModel: params.trustModel } : {}),
        engine: this.options.engine,
        signal,
      });
      return worldOutcome.result;
    }
    const outcome = await simulateFile(pack, params.file, params.language, {
      interpreters: params.interpreters ?? {},
      ...(params.scenario !== undefined ? { scenario: params.scenario } : {}),
      ...(params.mistake !== undefined ? { mistake: params.mistake } : {}),
      ...(params.timeLimitMs !== undefined ? { timeLimitMs: params.timeLimitMs } : {}),
      sandbox: this.setting(params),
      engine: this.options.engine,
      signal,
    });
    return outcome.result;
  }

  status(): Omit<ServiceStatus, 'collections'> {
    const memory = process.memoryUsage();
    return {
      pid: process.pid,
      checks: this.checks,
      packs: this.packsSeen.size,
      passingBatches: this.batches.size,
      warmEngine: this.warm?.engine.waiting ? this.warm.engine.packDir : null,
      enginesStarted: this.enginesStarted,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
    };
  }

  dispose(): void {
    this.disposed = true;
    this.warm?.engine.dispose();
    this.warm = undefined;
  }
}
