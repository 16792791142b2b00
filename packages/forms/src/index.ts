/**
 * Forms shared by the customer app and the back office: the schema-form hook and the text of a
 * field's validation message. Each app keeps its own bound controls (antd-mobile, antd).
 */
export {
  type FieldErrorText,
  type FieldErrorTextOptions,
  fieldErrorText,
  type Translator,
} from './field-error.ts';
export { LazySchema, type SchemaForm, useSchemaForm } from './use-schema-form.ts';
