/**
 * One tree-sitter query per grammar; every capture named `definition` marks a node whose first
 * line is listed. Written against the grammars in @vscode/tree-sitter-wasm 0.3 (a node type the
 * grammar lacks makes the query fail to compile, which the unit tests check for each language).
 */

const typescriptLike = `
(function_declaration) @definition
(generator_function_declaration) @definition
(class_declaration) @definition
(abstract_class_declaration) @definition
(interface_declaration) @definition
(type_alias_declaration) @definition
(enum_declaration) @definition
(internal_module) @definition
(method_definition) @definition
(abstract_method_signature) @definition
(variable_declarator value: [(arrow_function) (function_expression)]) @definition
(public_field_definition value: [(arrow_function) (function_expression)]) @definition
`;

const javascript = `
(function_declaration) @definition
(generator_function_declaration) @definition
(class_declaration) @definition
(method_definition) @definition
(variable_declarator value: [(arrow_function) (function_expression)]) @definition
(field_definition value: [(arrow_function) (function_expression)]) @definition
`;

const python = `
(class_definition) @definition
(function_definition) @definition
`;

const go = `
(function_declaration) @definition
(method_declaration) @definition
(type_spec) @definition
`;

const rust = `
(function_item) @definition
(function_signature_item) @definition
(struct_item) @definition
(enum_item) @definition
(union_item) @definition
(trait_item) @definition
(impl_item) @definition
(mod_item body: (_)) @definition
(type_item) @definition
(macro_definition) @definition
`;

const java = `
(class_declaration) @definition
(interface_declaration) @definition
(enum_declaration) @definition
(record_declaration) @definition
(annotation_type_declaration) @definition
(method_declaration) @definition
(constructor_declaration) @definition
`;

/** Also used for C: the package ships no C grammar, and C++'s parses C's definitions alike. */
const cpp = `
(function_definition) @definition
(declaration declarator: (function_declarator)) @definition
(field_declaration declarator: (function_declarator)) @definition
(class_specifier body: (_)) @definition
(struct_specifier body: (_)) @definition
(union_specifier body: (_)) @definition
(enum_specifier body: (_)) @definition
(namespace_definition) @definition
(type_definition) @definition
(alias_declaration) @definition
`;

const csharp = `
(namespace_declaration) @definition
(file_scoped_namespace_declaration) @definition
(class_declaration) @definition
(interface_declaration) @definition
(struct_declaration) @definition
(enum_declaration) @definition
(record_declaration) @definition
(delegate_declaration) @definition
(method_declaration) @definition
(constructor_declaration) @definition
(property_declaration) @definition
`;

const ruby = `
(class) @definition
(module) @definition
(method) @definition
(singleton_method) @definition
`;

const php = `
(class_declaration) @definition
(interface_declaration) @definition
(trait_declaration) @definition
(enum_declaration) @definition
(function_definition) @definition
(method_declaration) @definition
`;

export const QUERIES = { typescript: typescriptLike, tsx: typescriptLike, javascript, python, go, rust, java, cpp, "c-sharp": csharp, ruby, php } as const;

export type Grammar = keyof typeof QUERIES;
