import type { AppContext } from '../context.js';
import { AccountService } from './account.service.js';
import { AdminService } from './admin.service.js';
import { ConvertService } from './convert.service.js';
import { CreditsService } from './credits.service.js';
import { ExportService } from './export.service.js';
import { JobsService } from './jobs.service.js';
import { SectionsService } from './sections.service.js';
import { UpgradeService } from './upgrade.service.js';
import { UploadService } from './upload.service.js';

/** Every service, built once per application from its context. */
export interface Services {
  accounts: AccountService;
  admin: AdminService;
  convert: ConvertService;
  credits: CreditsService;
  exports: ExportService;
  jobs: JobsService;
  sections: SectionsService;
  uploads: UploadService;
  upgrades: UpgradeService;
}

export function createServices(ctx: AppContext): Services {
  const jobs = new JobsService(ctx);
  return {
    accounts: new AccountService(ctx.database, ctx.config),
    admin: new AdminService(ctx),
    convert: new ConvertService(ctx),
    credits: new CreditsService(ctx.database),
    exports: new ExportService(ctx, jobs),
    jobs,
    sections: new SectionsService(ctx),
    uploads: new UploadService(ctx),
    upgrades: new UpgradeService(ctx),
  };
}
