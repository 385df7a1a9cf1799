/**
 * Every rule of a release is read somewhere in the source: a field of `ReleaseRules` that nothing
 * reads is a difference between releases that we claim to follow and do not (as `budgetWindowCap`
 * once was: every release got 2.8.0's 300k cap). Read with TypeScript's own checker over the
 * project's program (src/ and bridge/, as tsconfig.json has them): a read is a property access, an
 * element access or a destructuring whose property the checker resolves to that field of
 * `ReleaseRules`, outside releases.ts (which sets them). `config.thinkingStrip` is another type's
 * field and does not count, however it is spelled.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../../../support/paths';

const RELEASES = join(repoRoot, 'src', 'engine', 'release', 'releases.ts');

/** The project's program, as `tsc -p .` builds it. */
function projectProgram(): ts.Program {
	const parsed = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')) });
	assert.ok(parsed, 'tsconfig.json read');
	return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** Each field of the interface `name` declared in `file`, by its declaration. */
function fieldsOf(program: ts.Program, file: string, name: string): Map<ts.Declaration, string> {
	const source = program.getSourceFile(file);
	const declaration = source?.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === name);
	assert.ok(declaration, `${name} found in ${file}`);
	return new Map(declaration.members.filter(ts.isPropertySignature).map((member) => [member as ts.Declaration, member.name.getText(source)]));
}

/** The fields of `fields` that some expression outside `except` reads. */
function readFields(program: ts.Program, fields: ReadonlyMap<ts.Declaration, string>, except: string): Set<string> {
	const checker = program.getTypeChecker();
	const read = new Set<string>();
	const note = (symbol: ts.Symbol | undefined): void => {
		for (const declaration of symbol?.declarations ?? []) {
			const field = fields.get(declaration);
			if (field !== undefined) {
				read.add(field);
			}
		}
	};
	const visit = (node: ts.Node): void => {
		if (ts.isPropertyAccessExpression(node) && !isAssigned(node)) {
			note(checker.getSymbolAtLocation(node.name));
		} else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && !isAssigned(node)) {
			note(checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text));
		} else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
			const key = node.propertyName ?? node.name;
			if (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) {
				note(checker.getTypeAtLocation(node.parent).getProperty(key.text));
			}
		}
		ts.forEachChild(node, visit);
	};
	for (const source of program.getSourceFiles()) {
		if (!source.isDeclarationFile && source.fileName !== except && !source.fileName.includes('/node_modules/')) {
			visit(source);
		}
	}
	return read;
}

/** `rules.x = …` writes the field; `rules.x += …` reads it too, and is counted. */
function isAssigned(node: ts.Expression): boolean {
	const parent = node.parent;
	return ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

describe('ReleaseRules', function () {
	// The checker reads the whole project.
	this.timeout(120_000);

	it('has no field that the source never reads', () => {
		const program = projectProgram();
		const fields = fieldsOf(program, RELEASES, 'ReleaseRules');
		const read = readFields(program, fields, RELEASES);
		assert.ok(fields.size > 10, `found the fields: ${[...fields.values()].join(', ')}`);
		const unread = [...fields.values()].filter((field) => field !== 'version' && !read.has(field));
		assert.deepEqual(unread, []);
	});

	it('tells a field of the rules from a field of the same name of another type', () => {
		// `config.strip` reads another type's field; the rules' `strip` is never read, their `other` is.
		const text = 'export interface Rules {\n\treadonly strip: boolean;\n\treadonly other: number;\n}\n'
			+ 'declare const config: { readonly strip: boolean };\ndeclare const rules: Rules;\nexport const stripped = config.strip;\nexport const { other } = rules;\n';
		const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] };
		const host = ts.createCompilerHost(options);
		const probe = ts.createProgram({
			rootNames: ['/probe/use.ts'], options,
			host: {
				...host,
				fileExists: (file) => file === '/probe/use.ts' || host.fileExists(file),
				readFile: (file) => (file === '/probe/use.ts' ? text : host.readFile(file)),
				getSourceFile: (file, version) => (file === '/probe/use.ts' ? ts.createSourceFile(file, text, version, true) : host.getSourceFile(file, version)),
			},
		});
		const probeFields = fieldsOf(probe, '/probe/use.ts', 'Rules');
		assert.deepEqual([...readFields(probe, probeFields, '/probe/none.ts')], ['other']);
	});
});
