public enum DemoAssets {}
