# frozen_string_literal: true

# StackProf for the EM server, in two roles (scripts/profile_em.sh uses both):
#
#   STACKPROF_OUT=x.dump ruby -r ./ruby/em/profile.rb ruby/em/server.rb …
#     samples the server and writes the raw dump when it exits. Sampling starts on SIGUSR1, so
#     that the dump holds the request path and not the start-up (loading gems, contract, site).
#     STACKPROF_MODE: cpu (default; on-CPU time only) or wall; STACKPROF_INTERVAL: µs (1000).
#   ruby ruby/em/profile.rb x.dump …
#     prints where the samples are: Ruby code, C functions (the reactor, the C parser, core
#     methods: StackProf sees a C function as one frame, never the C code inside it) and GC.

# The default group and StackProf's (profile), of this Ruby's Gemfile (ruby/load_gems.rb);
# scripts/setup.sh --profile installs them.
require_relative '../load_gems'
EmVsNode::Gems.setup('profile', :default, :profile, run: 'scripts/setup.sh --profile')
require 'stackprof'

module EmVsNode
  module Profile
    MODES = %w[cpu wall].freeze

    def self.install(out, mode, interval)
      Signal.trap('USR1') { StackProf.start(mode: mode.to_sym, raw: true, interval: interval) }
      at_exit do
        StackProf.stop
        results = StackProf.results
        if results
          File.binwrite(out, Marshal.dump(results))
        else
          # One line for the caller to pass on: a dump that is missing must say why.
          warn 'profile: no samples (sampling never started: no SIGUSR1)'
        end
      end
    end

    # Self samples by kind. StackProf gives a Ruby method its first line; a C function has
    # none; GC is a made-up frame named "(…)".
    def self.breakdown(results)
      kinds = Hash.new(0)
      c_functions = Hash.new(0)
      results[:frames].each_value do |frame|
        if frame[:line]
          kinds[:ruby] += frame[:samples]
        elsif frame[:name].start_with?('(')
          kinds[:gc] += frame[:samples]
        else
          kinds[:c] += frame[:samples]
          c_functions[frame[:name]] += frame[:samples]
        end
      end
      [kinds, c_functions.max_by(3) { |_, samples| samples }]
    end

    def self.breakdown_line(file)
      results = Marshal.load(File.binread(file)) # rubocop:disable Security/MarshalLoad -- our own dump
      total = results[:samples]
      return "#{file}: no samples" if total.zero?

      kinds, top_c = breakdown(results)
      pct = ->(n) { format('%.1f%%', 100.0 * n / total) }
      top = top_c.map { |name, n| "#{name} #{pct[n]}" }.join(', ')
      "#{total} samples (#{results[:mode]}): Ruby code #{pct[kinds[:ruby]]}, " \
        "C functions #{pct[kinds[:c]]} (#{top}), GC #{pct[kinds[:gc]]}"
    end
  end
end

if $PROGRAM_NAME == __FILE__
  abort 'usage: ruby ruby/em/profile.rb DUMP…' if ARGV.empty?
  ARGV.each { |file| puts EmVsNode::Profile.breakdown_line(file) }
else
  out = ENV.fetch('STACKPROF_OUT') { abort 'profile: set STACKPROF_OUT to the file the dump goes to' }
  mode = ENV.fetch('STACKPROF_MODE', 'cpu')
  unless EmVsNode::Profile::MODES.include?(mode)
    abort "profile: STACKPROF_MODE must be #{EmVsNode::Profile::MODES.join(' or ')} (got #{mode})"
  end
  EmVsNode::Profile.install(out, mode, Integer(ENV.fetch('STACKPROF_INTERVAL', '1000')))
end
