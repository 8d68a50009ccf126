// Types for eslint.config.js, whose purity rules tests/lint imports.
import type { Linter } from 'eslint';

export const machinePurityRules: Linter.RulesRecord;
declare const config: Linter.Config[];
export default config;
