'use strict';
// Installs a runtime of perf/runtimes.json into .runtimes/ (perf/lib/hosts/runtimes.js says
// where), once per checkout: Node from the npm registry's package of Node's own Linux build
// (checked against the pinned integrity), Ruby built from the upstream source in Debian's source
// package (checked against the pinned sha256), with YJIT, then the servers' gems for it (each
// Ruby its own Gemfile and lockfile: ruby/load_gems.rb). Each step says what it does and how long it
// took; a failing one throws an InstallError with one line saying what and what to do, and
// leaves nothing half installed (installed.json, written last, marks a whole install).
//
// Why Ruby from Debian's source package: the registries this project reaches serve no Ruby
// newer than 3.1 as a binary, and Debian's source index is signed, so apt-get checks the tarball
// it downloads; the pinned sha256 makes the build reproducible across machines. Built with
// --enable-load-relative (perf/runtimes.json): the Ruby finds its library and its commands find
// the Ruby from where they are, so a checkout moved, or reached by another path, keeps it whole.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, execFileSync } = require('node:child_process');
const { RUNTIMES_DIR, INSTALLED_FILE, installDir, installRecord, runtimeOf, unavailable } = require('./runtimes');
const { PROJECT_ROOT } = require('../project_root');

// Debian's archive, read with a source list of our own (the machine's apt configuration is left
// as it is), signed with the keys of the machine's debian-archive-keyring.
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
const DEBIAN_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';
// How often a long step says how far it is.
const PROGRESS_MS = 15000;

/** A step of an install that failed: its message fits one terminal line. */
class InstallError extends Error {}

const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`;

/**
 * Runs a command, its output to logFile (appended), every PROGRESS_MS calling progress(elapsed
 * ms) while it runs; resolves when it exits 0, else throws InstallError(`${what} failed …`).
 */
function step(command, args, { cwd, env = process.env, logFile, what, progress = null }) {
  return new Promise((resolve, reject) => {
    const log = fs.openSync(logFile, 'a');
    fs.writeSync(log, `\n$ ${command} ${args.join(' ')}\n`);
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', log, log] });
    const timer = progress ? setInterval(() => progress(Date.now() - started), PROGRESS_MS) : null;
    const done = (err) => {
      if (timer) clearInterval(timer);
      fs.closeSync(log);
      if (err) reject(err);
      else resolve(Date.now() - started);
    };
    child.once('error', (err) => done(new InstallError(`${what} failed: ${command}: ${err.code === 'ENOENT' ? 'not installed' : err.message} (log: ${path.relative(PROJECT_ROOT, logFile)})`)));
    child.once('exit', (code, signal) => {
      if (code === 0) done(null);
      else done(new InstallError(`${what} failed (${signal ? `signal ${signal}` : `exit code ${code}`}); its output: ${path.relative(PROJECT_ROOT, logFile)}`));
    });
  });
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function hasCommand(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * What a build needs and the machine lacks (runtime.build_needs: a command or a header file,
 * each with the Debian package that brings it): [{ need, pkg }].
 */
function missingBuildNeeds(runtime) {
  return Object.entries(runtime.build_needs || {})
    .filter(([need]) => (need.startsWith('/') ? !fs.existsSync(need) : !hasCommand(need)))
    .map(([need, pkg]) => ({ need, pkg }));
}

/** Node's Linux build from the npm registry, checked against the pinned integrity. */
async function installNode(runtime, { work, target, logFile, say }) {
  say(`downloading ${runtime.package}@${runtime.version} from the npm registry (about 50 MB)`);
  await step('npm', ['pack', `${runtime.package}@${runtime.version}`, '--json', '--pack-destination', work], { cwd: work, logFile, what: `downloading ${runtime.package}@${runtime.version}` });
  const tarball = path.join(work, `${runtime.package}-${runtime.version}.tgz`);
  const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
  if (integrity !== runtime.integrity) throw new InstallError(`${runtime.package}@${runtime.version} is not the package perf/runtimes.json pins (integrity ${integrity.slice(0, 20)}…, expected ${runtime.integrity.slice(0, 20)}…)`);
  say('unpacking');
  await step('tar', ['xzf', tarball, '-C', work], { cwd: work, logFile, what: 'unpacking Node' });
  fs.renameSync(path.join(work, 'package'), target);
  const node = path.join(target, 'bin', 'node');
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  if (version !== `v${runtime.version}`) throw new InstallError(`${node} says ${version}, not v${runtime.version}`);
  return { integrity };
}

/** apt-get with a source list of our own in work/apt (the machine's lists stay as they are). */
function aptArgs(work) {
  const dir = path.join(work, 'apt');
  return [
    '-o', `Dir::Etc::SourceList=${path.join(dir, 'sources.list')}`,
    '-o', 'Dir::Etc::SourceParts=/dev/null',
    '-o', `Dir::State::Lists=${path.join(dir, 'lists')}`,
    '-o', `Dir::Cache=${path.join(dir, 'cache')}`,
    '-o', 'APT::Sandbox::User=root',
  ];
}

/** Ruby's source from Debian's source package, built with YJIT, then the servers' gems. */
async function installRuby(runtime, { work, target, logFile, say, jobs }) {
  const missing = missingBuildNeeds(runtime);
  if (missing.length) {
    const pkgs = [...new Set(missing.map((m) => m.pkg))];
    if (process.getuid && process.getuid() === 0 && hasCommand('apt-get')) {
      say(`installing what the build needs: ${pkgs.join(' ')} (Debian's packages)`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      try {
        await step('apt-get', ['install', '-y', '-qq', ...pkgs], { cwd: work, env, logFile, what: 'apt-get install' });
      } catch {
        await step('apt-get', ['update', '-qq'], { cwd: work, env, logFile, what: 'apt-get update' });
        await step('apt-get', ['install', '-y', '-qq', ...pkgs], { cwd: work, env, logFile, what: `installing ${pkgs.join(' ')}` });
      }
    } else {
      throw new InstallError(`building ${runtime.label} needs ${missing.map((m) => m.need).join(', ')}; install with: sudo apt-get install ${pkgs.join(' ')}`);
    }
  }
  if (!hasCommand('apt-get')) throw new InstallError(`building ${runtime.label} reads Debian's source package ${runtime.package}, and this machine has no apt-get`);
  const apt = path.join(work, 'apt');
  fs.mkdirSync(path.join(apt, 'lists', 'partial'), { recursive: true });
  fs.mkdirSync(path.join(apt, 'cache', 'archives', 'partial'), { recursive: true });
  fs.writeFileSync(path.join(apt, 'sources.list'), `deb-src [signed-by=${DEBIAN_KEYRING}] ${DEBIAN_MIRROR} ${runtime.suite} main\n`);
  say(`reading Debian's source index (${runtime.suite})`);
  await step('apt-get', [...aptArgs(work), 'update', '-qq'], { cwd: work, logFile, what: `reading Debian's ${runtime.suite} source index (no network, or ${DEBIAN_MIRROR} unreachable?)` });
  say(`downloading the source of ${runtime.package} ${runtime.version} (about 15 MB)`);
  await step('apt-get', [...aptArgs(work), 'source', '--download-only', `${runtime.package}=${runtime.version}`], { cwd: work, logFile, what: `downloading ${runtime.package} ${runtime.version}'s source` });
  const tarball = path.join(work, runtime.tarball);
  if (!fs.existsSync(tarball)) throw new InstallError(`Debian's source package ${runtime.package} ${runtime.version} has no ${runtime.tarball}`);
  const digest = sha256(tarball);
  if (digest !== runtime.sha256) throw new InstallError(`${runtime.tarball} is not the tarball perf/runtimes.json pins (sha256 ${digest.slice(0, 16)}…, expected ${runtime.sha256.slice(0, 16)}…)`);
  await step('tar', ['xf', tarball, '-C', work], { cwd: work, logFile, what: `unpacking ${runtime.tarball}` });
  const src = fs.readdirSync(work).map((d) => path.join(work, d)).find((d) => fs.existsSync(path.join(d, 'configure')));
  if (!src) throw new InstallError(`${runtime.tarball} holds no configure script`);
  // Debian's source leaves out the gems Ruby bundles (minitest, rake, …), and `make install`
  // would download them from outside: none is bundled, the servers' Gemfile asks for what they use.
  fs.writeFileSync(path.join(src, 'gems', 'bundled_gems'), '');
  say(`configuring (${runtime.configure.join(' ')})`);
  await step('./configure', [`--prefix=${target}`, ...runtime.configure], { cwd: src, logFile, what: 'configure' });
  const compiled = () => (fs.readFileSync(logFile, 'utf8').match(/^compiling /gm) || []).length;
  say(`building with ${jobs} jobs (about ${Math.round(runtime.build_estimate_s / 60)} min on 2 cores)`);
  const env = { ...process.env, MAKEFLAGS: `-j${jobs}` };
  await step('make', [], { cwd: src, env, logFile, what: 'make', progress: (ms) => say(`building: ${seconds(ms)}, ${compiled()} of about 410 C files compiled`) });
  say('installing');
  await step('make', ['install'], { cwd: src, env, logFile, what: 'make install' });
  const ruby = path.join(target, 'bin', 'ruby');
  const description = execFileSync(ruby, ['--yjit', '-e', 'print RUBY_DESCRIPTION, " ", RubyVM::YJIT.enabled?'], { encoding: 'utf8' });
  if (!/ true$/.test(description)) throw new InstallError(`${ruby} was built without YJIT (${description}); see ${path.relative(PROJECT_ROOT, logFile)}`);
  return { sha256: digest, configure: runtime.configure, description: description.replace(/ true$/, '') };
}

/** The servers' gems for a Ruby the project installed (its Gemfile: ruby/load_gems.rb), into vendor/bundle. */
async function installGems(runtime, { target, logFile, say, jobs }) {
  say('installing the servers\' gems for it (bundle install)');
  const env = { ...process.env, PATH: `${path.join(target, 'bin')}${path.delimiter}${process.env.PATH}`, BUNDLE_JOBS: String(jobs), MAKEFLAGS: `-j${jobs}` };
  const gemfile = execFileSync(path.join(target, 'bin', 'ruby'), ['-r', path.join(PROJECT_ROOT, 'ruby', 'load_gems.rb'), '-e', 'print EmVsNode::Gems.gemfile'], { encoding: 'utf8', env });
  await step(path.join(target, 'bin', 'bundle'), ['install', '--quiet'], { cwd: PROJECT_ROOT, env: { ...env, BUNDLE_GEMFILE: gemfile }, logFile, what: `bundle install for ${runtime.label}` });
}

/**
 * Installs one runtime (an id of perf/runtimes.json; a variant installs what it varies) unless
 * it is installed: resolves { id, installed: false } when it was already, else with the
 * install's record. say(line) gets the progress. Throws InstallError (one line).
 */
async function installRuntime(id, { root = RUNTIMES_DIR, say = () => {}, jobs = os.availableParallelism ? os.availableParallelism() : os.cpus().length } = {}) {
  const runtime = runtimeOf(runtimeOf(id).base);
  if (runtime.from === 'system') {
    const why = unavailable(runtime, root);
    if (why) throw new InstallError(`${why}; the project does not install the machine's own runtimes`);
    return { id: runtime.id, installed: false };
  }
  if (installRecord(runtime, root)) return { id: runtime.id, installed: false };
  const target = installDir(runtime, root);
  fs.mkdirSync(root, { recursive: true });
  // What an install cut short left (a Ctrl-C ends the process before it can clean up).
  fs.rmSync(target, { recursive: true, force: true });
  for (const old of fs.readdirSync(root).filter((d) => d.startsWith(`.work-${runtime.id}-`))) fs.rmSync(path.join(root, old), { recursive: true, force: true });
  const work = fs.mkdtempSync(path.join(root, `.work-${runtime.id}-`));
  const logFile = path.join(root, `${runtime.id}.log`);
  fs.writeFileSync(logFile, '');
  const started = Date.now();
  const tell = (line) => say(`${runtime.id}: ${line}`);
  let installed;
  try {
    const how = runtime.kind === 'node' ? await installNode(runtime, { work, target, logFile, say: tell }) : await installRuby(runtime, { work, target, logFile, say: tell, jobs });
    const record = { id: runtime.id, label: runtime.label, from: runtime.from, package: runtime.package, version: runtime.version, ...how, seconds: Math.round((Date.now() - started) / 100) / 10, installed_at: new Date().toISOString(), machine: { cpu_model: os.cpus()[0]?.model ?? null, cores: os.cpus().length } };
    fs.writeFileSync(path.join(target, INSTALLED_FILE), `${JSON.stringify(record, null, 2)}\n`);
    tell(`installed in ${seconds(Date.now() - started)} (${path.relative(PROJECT_ROOT, target)})`);
    installed = record;
  } catch (err) {
    fs.rmSync(target, { recursive: true, force: true });
    throw err instanceof InstallError ? err : new InstallError(`installing ${runtime.label}: ${err.message}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  // The gems after the record, outside the install's clean-up: a gem that fails to install
  // leaves the build in place, and the next install (or run) installs the gems alone.
  await ensureGems(runtime.id, { root, say, jobs });
  return { id: runtime.id, installed: true, record: installed };
}

/**
 * Installs the servers' gems for an installed Ruby when its bundle lacks any (`bundle check`:
 * the lockfile changed since the install); resolves true when it installed. The machine's own
 * Ruby's gems are scripts/setup.sh's.
 */
async function ensureGems(id, { root = RUNTIMES_DIR, say = () => {}, jobs = 2 } = {}) {
  const runtime = runtimeOf(runtimeOf(id).base);
  if (runtime.kind !== 'ruby' || runtime.from === 'system' || !installRecord(runtime, root)) return false;
  const target = installDir(runtime, root);
  const env = { ...process.env, PATH: `${path.join(target, 'bin')}${path.delimiter}${process.env.PATH}` };
  try {
    execFileSync(path.join(target, 'bin', 'ruby'), ['-r', path.join(PROJECT_ROOT, 'ruby', 'load_gems.rb'), '-e', 'EmVsNode::Gems.setup("gems")'], { cwd: PROJECT_ROOT, env, stdio: 'ignore', timeout: 30000 });
    return false;
  } catch {
    const logFile = path.join(root, `${runtime.id}-gems.log`);
    await installGems(runtime, { target, logFile, say: (line) => say(`${runtime.id}: ${line}`), jobs });
    return true;
  }
}

module.exports = { InstallError, installRuntime, ensureGems, missingBuildNeeds };
