# frozen_string_literal: true

module EmVsNode
  # The gems of the Ruby that runs: one Gemfile and lockfile per Ruby, since the async gems'
  # releases that still run on the machine's Ruby 3.1 (the root Gemfile's) are not today's, which
  # ask for Ruby >= 3.3. A Ruby with a Gemfile of its own (ruby/gems/<major.minor>/Gemfile, its
  # gems in the project's vendor/bundle too) uses that one; any other, the root Gemfile.
  module Gems
    ROOT = File.expand_path('..', __dir__)

    def self.gemfile(version = RUBY_VERSION)
      own = File.join(__dir__, 'gems', version[/\A\d+\.\d+/], 'Gemfile')
      File.exist?(own) ? own : File.join(ROOT, 'Gemfile')
    end

    # Loads the bundle's groups (none named: all), or ends the start in one line (`who: …`,
    # exit 1; run: the command that installs them, for the root Gemfile: a Ruby the project
    # installed gets its gems with it). BUNDLE_GEMFILE is set whatever it was: a caller's
    # Gemfile may be another Ruby's lockfile.
    def self.setup(who, *groups, run: 'scripts/setup.sh')
      ENV['BUNDLE_GEMFILE'] = gemfile
      require 'bundler'
      Bundler.setup(*groups)
    rescue LoadError, StandardError => e
      how = gemfile == File.join(ROOT, 'Gemfile') ? run : 'npm run runtimes -- install'
      warn "#{who}: the project's gems are not installed (#{e.message.lines.first.strip}); run #{how}"
      exit 1
    end
  end
end
