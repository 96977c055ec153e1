import { SOURCE_VALIDATORS, writeValidators } from '../../scripts/schema-validators';

/**
 * The unit tests run src/ from its sources, whose schema checks load the validators `npm run build`
 * writes beside them (src/util/validators/, ignored by git): written again here, from the schemas as
 * they are now, so the unit tests need no build.
 */
export default function unitValidators(): void {
  writeValidators(SOURCE_VALIDATORS);
}
