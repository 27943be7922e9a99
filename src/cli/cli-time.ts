/** The CLI's `--since`, `--until` and `--occurred-at` use the core's time parser, as `recall` and `list` do. */
export { type ParseTimeOptions, parseTime, TIME_FORMATS, TimeParseError } from '../core/utils/parse-time.js';
