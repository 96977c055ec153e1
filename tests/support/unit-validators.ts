import path from 'node:path';
import { writeValidators } from '../../scripts/schema-validators';

/**
 * The unit tests run src/ from its sources, whose schema checks load the validators `npm run build`
 * writes into dist/: the same code is written beside the sources (src/util/validators/, ignored by
 * git), from the schemas as they are now.
 */
export default function unitValidators(): void {
  writeValidators(path.resolve(__dirname, '..', '..', 'src', 'util', 'validators'));
}
