/**
 * The lesson packs this editor can offer: the built-in ones shipped in the extension and the ones an
 * instructor's "Install Lesson Pack…" put into global storage. Loaded lazily and cached, because
 * loading parses every transcript; `refresh()` after an install.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { packRoots } from '../../node/packs/locations';
import { discoverPacks, type LoadedPack, type PackListing } from '../../node/packs/packs';
import type { Log } from '../workbench/log';
import { discoverCourses, type LoadedCourse } from '../../node/course/courses';

export class PackService implements vscode.Disposable {
  private listing: Promise<PackListing> | undefined;
  private courseListing: Promise<LoadedCourse[]> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly extensionPath: string,
    private readonly globalStorage: vscode.Uri,
    private readonly log: Log,
  ) {}

  /** Where installed packs live: <globalStorage>/packs (the install command writes there too). */
  get installedDir(): string {
    return path.join(this.globalStorage.fsPath, 'packs');
  }

  all(): Promise<PackListing> {
    this.listing ??= discoverPacks(packRoots(path.join(this.extensionPath, 'dist'), this.installedDir)).then(
      (listing) => {
        for (const b of listing.broken) this.log.warn(`lesson pack not loaded: ${b.error}`);
        this.log.info(
          `lesson packs: ${listing.packs.map((p) => `${p.manifest.id}@${p.manifest.version} (${p.origin})`).join(', ') || 'none'}`,
        );
        return listing;
      },
    );
    return this.listing;
  }

  /** The courses beside the packs (a folder with course.json), built in and installed. */
  courses(): Promise<LoadedCourse[]> {
    this.courseListing ??= discoverCourses(packRoots(path.join(this.extensionPath, 'dist'), this.installedDir)).then(
      ({ courses, broken }) => {
        for (const b of broken) this.log.warn(`course not loaded: ${b.dir}: ${b.error}`);
        return courses;
      },
    );
    return this.courseListing;
  }

  async find(id: string): Promise<LoadedPack | undefined> {
    return (await this.all()).packs.find((p) => p.manifest.id === id);
  }

  refresh(): void {
    this.listing = undefined;
    this.courseListing = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
