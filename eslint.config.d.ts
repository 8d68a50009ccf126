// Types for eslint.config.js, whose purity and layering rules tests/lint imports.
import type { Linter } from 'eslint';

export const machinePurityRules: Linter.RulesRecord;
export const layeringRules: Linter.RulesRecord;
export const STORE_ABOVE_THE_SEAM: string[];
export const importSettings: Record<string, unknown>;
declare const config: Linter.Config[];
export default config;
